// Reading /etc/ld.so.cache: the binary format glibc's ldconfig writes, with `ldconfig -p` as fallback.
#include "ld_cache.hpp"

#include "child_process.hpp"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

namespace librednn::doctor {
namespace {

// The new format: magic "glibc-ld.so.cache" + version "1.1", then nlibs, len_strings, flags and
// padding, an extension offset and three unused words (48 bytes); then nlibs entries of 24 bytes:
// flags, key, value, osversion (int32/uint32 each) and a 64-bit hwcap. Key and value are string
// offsets from the start of this header.
constexpr char kNewMagic[] = "glibc-ld.so.cache1.1";
constexpr size_t kNewMagicLength = sizeof kNewMagic - 1;
constexpr size_t kNewHeaderSize = 48, kNewEntrySize = 24;
// The old format: magic "ld.so-1.7.0", nlibs, then nlibs entries of 12 bytes; the new format follows,
// aligned to 8 bytes.
constexpr char kOldMagic[] = "ld.so-1.7.0";
constexpr size_t kOldMagicLength = sizeof kOldMagic - 1;
constexpr uint32_t kTypeMask = 0x00ff, kRequiredMask = 0xff00, kElfLibc6 = 0x0003;

uint32_t read32(const std::vector<uint8_t> &bytes, size_t at, bool little) {
    uint32_t value = 0;
    for (int i = 0; i < 4; ++i) value |= uint32_t{bytes[at + i]} << (8 * (little ? i : 3 - i));
    return value;
}

bool read_string(const std::vector<uint8_t> &bytes, size_t base, uint32_t offset, std::string *text) {
    const size_t at = base + offset;
    if (at < base || at >= bytes.size()) return false;
    const void *end = std::memchr(bytes.data() + at, 0, bytes.size() - at);
    if (end == nullptr) return false;
    text->assign(reinterpret_cast<const char *>(bytes.data() + at),
                 static_cast<const uint8_t *>(end) - (bytes.data() + at));
    return true;
}

}  // namespace

const LdCacheEntry *LdCache::find(const std::string &soname) const {
    for (const LdCacheEntry &entry : entries) {
        if (entry.soname == soname) return &entry;
    }
    return nullptr;
}

uint32_t host_cache_flags() {
#if defined(__x86_64__)
    return 0x0300;  // FLAG_X8664_LIB64
#elif defined(__aarch64__)
    return 0x0a00;  // FLAG_AARCH64_LIB64
#else
    return 0;
#endif
}

std::string host_arch_tag() {
#if defined(__x86_64__)
    return "x86-64";
#elif defined(__aarch64__)
    return "AArch64";
#else
    return "";
#endif
}

bool parse_ld_cache(const std::vector<uint8_t> &bytes, uint32_t required_flags, LdCache *cache, std::string *error) {
    cache->entries.clear();
    size_t base = 0;
    if (bytes.size() >= kOldMagicLength && std::memcmp(bytes.data(), kOldMagic, kOldMagicLength) == 0) {
        // Skip the old table: the new one follows it when ldconfig wrote both.
        if (bytes.size() < kOldMagicLength + 4) {
            *error = "the cache file is truncated inside its old-format header";
            return false;
        }
        const uint64_t old_count = read32(bytes, kOldMagicLength, true);
        base = static_cast<size_t>((kOldMagicLength + 4 + old_count * 12 + 7) / 8 * 8);
        if (base > bytes.size()) {
            *error = "the cache file is truncated inside its old-format table";
            return false;
        }
    }
    if (bytes.size() - base < kNewHeaderSize || std::memcmp(bytes.data() + base, kNewMagic, kNewMagicLength) != 0) {
        *error = "the cache file is not in the format glibc-ld.so.cache1.1";
        return false;
    }
    // Flags byte: 2 little endian, 3 big endian, 0 unknown (assume this machine's order).
    const uint8_t endian = bytes[base + 28];
    const uint16_t probe = 1;
    const bool host_little = *reinterpret_cast<const uint8_t *>(&probe) == 1;
    const bool little = endian == 2 ? true : endian == 3 ? false : host_little;
    const uint64_t count = read32(bytes, base + 20, little);
    if (count > (bytes.size() - base - kNewHeaderSize) / kNewEntrySize) {
        *error = "the cache file claims " + std::to_string(count) + " entries but is only " +
                 std::to_string(bytes.size()) + " bytes long";
        return false;
    }
    for (uint64_t i = 0; i < count; ++i) {
        const size_t at = base + kNewHeaderSize + i * kNewEntrySize;
        const uint32_t flags = read32(bytes, at, little);
        if ((flags & kTypeMask) != kElfLibc6 || (flags & kRequiredMask) != required_flags) continue;
        LdCacheEntry entry;
        if (!read_string(bytes, base, read32(bytes, at + 4, little), &entry.soname) ||
            !read_string(bytes, base, read32(bytes, at + 8, little), &entry.path)) {
            *error = "cache entry " + std::to_string(i) + " names a string outside the file";
            return false;
        }
        cache->entries.push_back(std::move(entry));
    }
    return true;
}

void parse_ldconfig_output(const std::string &text, const std::string &arch_tag, LdCache *cache) {
    // "\tlibz.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libz.so.1"
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        const size_t open = line.find(" ("), close = line.find(") => ");
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        const std::string tags = line.substr(open + 2, close - open - 2);
        // 64-bit x86 is "libc6,x86-64"; a plain "libc6" on an x86-64 machine is a 32-bit library.
        const bool matches = arch_tag.empty() || tags.find(arch_tag) != std::string::npos;
        if (!matches) continue;
        size_t name_start = line.find_first_not_of(" \t");
        LdCacheEntry entry;
        entry.soname = line.substr(name_start, open - name_start);
        entry.path = line.substr(close + 5);
        cache->entries.push_back(std::move(entry));
    }
}

LdCache load_ld_cache(const std::string &path) {
    LdCache cache;
    if (path == "none") {
        cache.source = "none";
        return cache;
    }
    const std::string file = path.empty() ? "/etc/ld.so.cache" : path;
    std::ifstream in(file, std::ios::binary);
    if (in) {
        const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::string error;
        if (parse_ld_cache(bytes, host_cache_flags(), &cache, &error)) {
            cache.source = file;
            return cache;
        }
        cache.error = file + ": " + error;
    } else {
        cache.error = "cannot read " + file;
    }
    if (!path.empty()) return cache;  // an explicit file that cannot be read is not replaced
    const ChildOutcome listing = run_program({"ldconfig", "-p"}, 10000);
    const ChildOutcome sbin = listing.ok() ? listing : run_program({"/sbin/ldconfig", "-p"}, 10000);
    if (sbin.ok()) {
        parse_ldconfig_output(sbin.messages, host_arch_tag(), &cache);
        cache.source = "ldconfig -p";
    } else {
        cache.source = "none";
    }
    return cache;
}

}  // namespace librednn::doctor
