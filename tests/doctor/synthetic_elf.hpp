// Writes small ELF shared objects (or executables) with a chosen class, machine, SONAME, DT_NEEDED,
// DT_RPATH and DT_RUNPATH: the headers and dynamic section a loader and the doctor read, no code.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::tools::testing {

struct SyntheticElf {
    bool is64 = true;
    uint16_t machine = 62;  // x86-64; 3 is i386, 183 AArch64
    uint16_t type = 3;      // ET_DYN
    std::string soname;
    std::vector<std::string> needed;
    std::string rpath, runpath;
    std::string extra_text;  // bytes placed in the file (e.g. a LIBREDNN_BUILD_ID= marker)

    // Layout: ELF header, two program headers (PT_LOAD over the whole file at address 0, PT_DYNAMIC),
    // the dynamic string table, the dynamic section, the extra text.
    std::vector<uint8_t> build() const {
        const size_t header = is64 ? 64 : 52, phentsize = is64 ? 56 : 32, word = is64 ? 8 : 4;
        std::vector<uint8_t> bytes(header + 2 * phentsize, 0);
        auto put = [&](size_t at, uint64_t value, size_t width) {
            if (bytes.size() < at + width) bytes.resize(at + width);
            for (size_t i = 0; i < width; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
        };
        std::string strings(1, '\0');
        auto add = [&](const std::string &text) {
            const size_t at = strings.size();
            strings += text + '\0';
            return at;
        };
        std::vector<std::pair<uint64_t, uint64_t>> entries;  // (tag, value)
        for (const std::string &name : needed) entries.push_back({1, add(name)});
        if (!soname.empty()) entries.push_back({14, add(soname)});
        if (!rpath.empty()) entries.push_back({15, add(rpath)});
        if (!runpath.empty()) entries.push_back({29, add(runpath)});
        const size_t strtab = bytes.size();
        bytes.insert(bytes.end(), strings.begin(), strings.end());
        bytes.resize((bytes.size() + 7) / 8 * 8);
        entries.push_back({5, strtab});
        entries.push_back({10, strings.size()});
        entries.push_back({0, 0});
        const size_t dynamic = bytes.size();
        for (size_t i = 0; i < entries.size(); ++i) {
            put(dynamic + 2 * word * i, entries[i].first, word);
            put(dynamic + 2 * word * i + word, entries[i].second, word);
        }
        const size_t dynamic_size = 2 * word * entries.size();
        bytes.insert(bytes.end(), extra_text.begin(), extra_text.end());

        const uint8_t ident[] = {0x7f, 'E', 'L', 'F', static_cast<uint8_t>(is64 ? 2 : 1), 1, 1};
        for (size_t i = 0; i < sizeof ident; ++i) bytes[i] = ident[i];
        put(16, type, 2);
        put(18, machine, 2);
        put(20, 1, 4);                      // e_version
        put(is64 ? 32 : 28, header, word);  // e_phoff
        put(is64 ? 52 : 40, header, 2);     // e_ehsize
        put(is64 ? 54 : 42, phentsize, 2);
        put(is64 ? 56 : 44, 2, 2);               // e_phnum
        put(is64 ? 58 : 46, is64 ? 64 : 40, 2);  // e_shentsize (no section headers)
        auto segment = [&](size_t index, uint32_t segment_type, uint64_t offset, uint64_t size) {
            const size_t at = header + index * phentsize;
            put(at, segment_type, 4);
            if (is64) {
                put(at + 4, 4, 4);  // p_flags: readable
                put(at + 8, offset, 8);
                put(at + 16, offset, 8);  // p_vaddr == offset
                put(at + 24, offset, 8);
                put(at + 32, size, 8);
                put(at + 40, size, 8);
                put(at + 48, 8, 8);
            } else {
                put(at + 4, offset, 4);
                put(at + 8, offset, 4);
                put(at + 12, offset, 4);
                put(at + 16, size, 4);
                put(at + 20, size, 4);
                put(at + 24, 4, 4);
                put(at + 28, 8, 4);
            }
        };
        segment(0, 1, 0, bytes.size());
        segment(1, 2, dynamic, dynamic_size);
        return bytes;
    }
};

}  // namespace librednn::tools::testing
