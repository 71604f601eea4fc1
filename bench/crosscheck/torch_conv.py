"""Times a few ResNet-50 convolutions through PyTorch (NVIDIA cuDNN via its graph API, cudnn.benchmark
on), half precision, channels-last, forward: an independent check of librednn-bench's numbers for the
same layers. Prints one line per layer: name, N, median microseconds, TFLOP/s."""
import sys

import torch

LAYERS = {  # name: (C, H, W, K, R, S, pad, stride)
    "conv1": (3, 224, 224, 64, 7, 7, 3, 2),
    "l1.c64k64r3": (64, 56, 56, 64, 3, 3, 1, 1),
    "l3.c256k256r3": (256, 14, 14, 256, 3, 3, 1, 1),
    "l4.c512k512r3": (512, 7, 7, 512, 3, 3, 1, 1),
    "l3.c1024k256r1": (1024, 14, 14, 256, 1, 1, 0, 1),
    "l4.c2048k512r1": (2048, 7, 7, 512, 1, 1, 0, 1),
}


def time_layer(n, c, h, w, k, r, s, pad, stride, runs=30):
    torch.backends.cudnn.benchmark = True
    x = torch.randn(n, c, h, w, device="cuda", dtype=torch.half).to(memory_format=torch.channels_last)
    conv = torch.nn.Conv2d(c, k, (r, s), stride=stride, padding=pad, bias=False).cuda().half()
    conv = conv.to(memory_format=torch.channels_last)
    with torch.no_grad():
        for _ in range(10):
            conv(x)
        torch.cuda.synchronize()
        times = []
        for _ in range(runs):
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            y = conv(x)
            end.record()
            torch.cuda.synchronize()
            times.append(start.elapsed_time(end) * 1000.0)
    times.sort()
    us = times[len(times) // 2]
    p, q = y.shape[2], y.shape[3]
    flops = 2.0 * n * k * p * q * c * r * s
    return us, flops / (us * 1e-6) / 1e12


if __name__ == "__main__":
    print("torch", torch.__version__, "cudnn", torch.backends.cudnn.version(), torch.cuda.get_device_name())
    for n in [int(v) for v in sys.argv[1:]] or [32, 256]:
        for name, (c, h, w, k, r, s, pad, stride) in LAYERS.items():
            us, tflops = time_layer(n, c, h, w, k, r, s, pad, stride)
            print(f"{name:16s} N={n:<4d} {us:9.1f} us {tflops:7.1f} TFLOP/s")
