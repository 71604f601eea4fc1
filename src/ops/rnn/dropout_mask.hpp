// Which elements dropout between RNN layers keeps: the dropout op's draw (descriptors/dropout.hpp, "The
// draw") over a numbering of every layer output a training forward drops from, so that the host and
// the GPU keep the same elements.
#pragma once

#include "descriptors/dropout.hpp"

#include <cstdint>

namespace librednn {

// The number of element (t, n, i) of layer `layer`'s output (layer < layers - 1) in the mask of one
// training forward with maxSeqLength T, batch N and outputs of Y values (projSize * directions):
// ((layer * T + t) * N + n) * Y + i. Every (t, n) has one, whether or not the sequence reaches t.
LIBREDNN_HOST_DEVICE inline uint64_t rnn_dropout_element(int layer, int t, int n, int i, int T, int N, int Y) {
    return ((static_cast<uint64_t>(layer) * T + t) * N + n) * Y + i;
}

// Whether the forward that is dropout call `call` of states with Philox key `key` keeps element
// `element`: word element % 4 of dropout_words(key, call, element / 4) is at least `threshold`
// (dropout_threshold(p)), exactly as cudnnDropoutForward decides for its element `element`.
LIBREDNN_HOST_DEVICE inline bool rnn_dropout_kept(const uint32_t key[2], uint64_t call, uint64_t threshold,
                                                  uint64_t element) {
    return dropout_words(key, call, element / 4).word[element % 4] >= threshold;
}

}  // namespace librednn
