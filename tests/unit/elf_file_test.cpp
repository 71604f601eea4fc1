// Tests for the ELF reader: synthetic ELF32/ELF64 images in both byte orders, damage, real files.
#include "elf_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace librednn::tools {
namespace {

constexpr uint64_t kBaseAddress = 0x10000;  // PT_LOAD vaddr, so DT_STRTAB must be translated

// Lays out bytes in either ELF class and byte order.
struct ImageWriter {
    bool is64;
    bool little;
    std::vector<uint8_t> bytes;

    void put(size_t at, uint64_t value, unsigned width) {
        if (bytes.size() < at + width) bytes.resize(at + width);
        for (unsigned i = 0; i < width; ++i) {
            bytes[at + (little ? i : width - 1 - i)] = static_cast<uint8_t>(value >> (8 * i));
        }
    }
    void word(size_t at, uint64_t value) { put(at, value, is64 ? 8 : 4); }
    size_t align(size_t alignment) {
        bytes.resize((bytes.size() + alignment - 1) / alignment * alignment);
        return bytes.size();
    }
};

struct SymbolSpec {
    const char *name;
    uint8_t info;   // binding << 4 | type
    uint8_t other;  // visibility
    uint16_t section;
    uint16_t version_index;
};

// Version index 2 is the library's SYNTH_1.0 definition, 3 the GLIBC_2.2.5 requirement on libc.
const SymbolSpec kSymbols[] = {
    {"synth_create", 0x12, 0, 5, 2},        // global function, default version
    {"synth_destroy", 0x12, 0, 5, 0x8002},  // global function, hidden version
    {"synth_table", 0x11, 0, 5, 1},         // global object
    {"synth_hidden", 0x12, 2, 5, 1},        // STV_HIDDEN function
    {"malloc", 0x12, 0, 0, 3},              // undefined
    {"synth_select", 0x2a, 0, 5, 1},        // weak GNU indirect function
    {"synth_create", 0x12, 0, 5, 0x8002},   // duplicate name, must be listed once
    {"local_helper", 0x02, 0, 5, 0},        // local function
};

// A minimal shared object: ELF header, PT_LOAD + PT_DYNAMIC, .dynstr, .dynsym, .gnu.version,
// .gnu.version_d, .gnu.version_r, .dynamic, then the section headers last in the file.
std::vector<uint8_t> build_image(bool is64, bool little, uint16_t machine) {
    ImageWriter w{is64, little, {}};
    const size_t header_size = is64 ? 64 : 52, phentsize = is64 ? 56 : 32;
    w.bytes.resize(header_size + 2 * phentsize);

    std::string strings(1, '\0');
    auto add = [&](const std::string &text) {
        const size_t at = strings.size();
        strings += text + '\0';
        return at;
    };
    const size_t libc = add("libc.so.6"), libm = add("libm.so.6"), soname = add("libsynth.so.1");
    const size_t rpath = add("/opt/synth/lib"), runpath = add("$ORIGIN/../lib");
    const size_t synth_version = add("SYNTH_1.0"), glibc_version = add("GLIBC_2.2.5");
    std::vector<size_t> symbol_names;
    for (const SymbolSpec &symbol : kSymbols) symbol_names.push_back(add(symbol.name));
    const size_t dynstr = w.bytes.size();
    w.bytes.insert(w.bytes.end(), strings.begin(), strings.end());

    const size_t symbol_size = is64 ? 24 : 16, symbol_count = std::size(kSymbols) + 1;
    const size_t dynsym = w.align(8);
    w.bytes.resize(dynsym + symbol_count * symbol_size);  // entry 0 stays all zero
    for (size_t i = 1; i < symbol_count; ++i) {
        const SymbolSpec &symbol = kSymbols[i - 1];
        const size_t at = dynsym + i * symbol_size;
        w.put(at, symbol_names[i - 1], 4);
        w.put(at + (is64 ? 4 : 12), symbol.info, 1);
        w.put(at + (is64 ? 5 : 13), symbol.other, 1);
        w.put(at + (is64 ? 6 : 14), symbol.section, 2);
    }

    const size_t versym = w.bytes.size();
    for (size_t i = 0; i < symbol_count; ++i) {
        w.put(versym + 2 * i, i == 0 ? 0 : kSymbols[i - 1].version_index, 2);
    }

    const size_t verdef = w.align(4);  // base definition (index 1) then SYNTH_1.0 (index 2)
    for (size_t i = 0; i < 2; ++i) {
        const size_t at = verdef + 28 * i;
        w.put(at, 1, 2);                                     // vd_version
        w.put(at + 2, i == 0 ? 1 : 0, 2);                    // vd_flags: VER_FLG_BASE
        w.put(at + 4, i + 1, 2);                             // vd_ndx
        w.put(at + 6, 1, 2);                                 // vd_cnt
        w.put(at + 12, 20, 4);                               // vd_aux
        w.put(at + 16, i == 0 ? 28 : 0, 4);                  // vd_next
        w.put(at + 20, i == 0 ? soname : synth_version, 4);  // vda_name
        w.put(at + 24, 0, 4);                                // vda_next
    }
    const size_t verneed = w.bytes.size();
    w.put(verneed, 1, 2);         // vn_version
    w.put(verneed + 2, 1, 2);     // vn_cnt
    w.put(verneed + 4, libc, 4);  // vn_file
    w.put(verneed + 8, 16, 4);    // vn_aux
    w.put(verneed + 12, 0, 4);    // vn_next
    w.put(verneed + 22, 3, 2);    // vna_other: the version index
    w.put(verneed + 24, glibc_version, 4);
    w.put(verneed + 28, 0, 4);  // vna_next

    const uint64_t dynamic_entries[][2] = {{1, libc},
                                           {1, libm},
                                           {14, soname},
                                           {15, rpath},
                                           {29, runpath},
                                           {5, kBaseAddress + dynstr},
                                           {10, strings.size()},
                                           {0, 0}};
    const size_t dyn_size = is64 ? 16 : 8;
    const size_t dynamic = w.align(8);
    for (size_t i = 0; i < std::size(dynamic_entries); ++i) {
        w.word(dynamic + i * dyn_size, dynamic_entries[i][0]);
        w.word(dynamic + i * dyn_size + dyn_size / 2, dynamic_entries[i][1]);
    }
    const size_t loaded_size = w.align(8);

    // Section headers: null, .dynstr, .dynsym, .gnu.version, .gnu.version_d, .gnu.version_r,
    // .dynamic.
    const uint32_t types[] = {0, 3, 11, 0x6fffffff, 0x6ffffffd, 0x6ffffffe, 6};
    const size_t offsets[] = {0, dynstr, dynsym, versym, verdef, verneed, dynamic};
    const size_t sizes[] = {
        0, strings.size(), symbol_count * symbol_size, 2 * symbol_count, 56, 32, std::size(dynamic_entries) * dyn_size};
    const size_t shentsize = is64 ? 64 : 40, section_headers = loaded_size;
    for (size_t i = 0; i < std::size(types); ++i) {
        const size_t at = section_headers + i * shentsize;
        w.put(at + 4, types[i], 4);
        w.word(at + (is64 ? 24 : 16), offsets[i]);
        w.word(at + (is64 ? 32 : 20), sizes[i]);
        w.put(at + (is64 ? 40 : 24), i == 0 ? 0 : 1, 4);  // sh_link: all use .dynstr
        w.word(at + (is64 ? 56 : 36), i == 2 ? symbol_size : 0);
    }

    const uint8_t ident[] = {0x7f, 'E', 'L', 'F', uint8_t(is64 ? 2 : 1), uint8_t(little ? 1 : 2), 1};
    std::copy(std::begin(ident), std::end(ident), w.bytes.begin());
    w.put(16, 3, 2);  // ET_DYN
    w.put(18, machine, 2);
    w.put(20, 1, 4);
    w.word(is64 ? 32 : 28, header_size);      // e_phoff
    w.word(is64 ? 40 : 32, section_headers);  // e_shoff
    const size_t fields = is64 ? 52 : 40;     // e_ehsize onwards
    const uint64_t field_values[] = {header_size, phentsize, 2, shentsize, std::size(types), 0};
    for (size_t i = 0; i < std::size(field_values); ++i) w.put(fields + 2 * i, field_values[i], 2);

    const uint64_t segments[][3] = {{1, 0, loaded_size}, {2, dynamic, std::size(dynamic_entries) * dyn_size}};
    for (size_t i = 0; i < 2; ++i) {
        const size_t at = header_size + i * phentsize;
        w.put(at, segments[i][0], 4);
        w.word(at + (is64 ? 8 : 4), segments[i][1]);                  // p_offset
        w.word(at + (is64 ? 16 : 8), kBaseAddress + segments[i][1]);  // p_vaddr
        w.word(at + (is64 ? 32 : 16), segments[i][2]);                // p_filesz
    }
    return w.bytes;
}

void expect_synthetic_fields(bool is64, bool little, uint16_t machine, const char *machine_name) {
    ElfInfo info;
    std::string error;
    ASSERT_TRUE(parse_elf(build_image(is64, little, machine), &info, &error)) << error;
    EXPECT_TRUE(error.empty());
    EXPECT_TRUE(info.is_elf);
    EXPECT_EQ(info.elf_class, is64 ? 64 : 32);
    EXPECT_EQ(info.little_endian, little);
    EXPECT_EQ(info.machine, machine);
    EXPECT_EQ(info.machine_name, machine_name);
    EXPECT_EQ(info.type, 3);
    EXPECT_EQ(info.soname, "libsynth.so.1");
    EXPECT_EQ(info.needed, (std::vector<std::string>{"libc.so.6", "libm.so.6"}));
    EXPECT_EQ(info.rpath, "/opt/synth/lib");
    EXPECT_EQ(info.runpath, "$ORIGIN/../lib");

    ASSERT_EQ(info.dynamic_symbols.size(), std::size(kSymbols));
    const std::string versions[] = {"SYNTH_1.0", "SYNTH_1.0", "", "", "GLIBC_2.2.5", "", "SYNTH_1.0", ""};
    for (size_t i = 0; i < std::size(kSymbols); ++i) {
        const ElfSymbol &symbol = info.dynamic_symbols[i];
        SCOPED_TRACE(symbol.name);
        EXPECT_EQ(symbol.name, kSymbols[i].name);
        EXPECT_EQ(symbol.defined, kSymbols[i].section != 0);
        EXPECT_EQ(symbol.global_or_weak, (kSymbols[i].info >> 4) != 0);
        EXPECT_EQ(symbol.is_function, (kSymbols[i].info & 0xf) != 1);
        EXPECT_EQ(symbol.default_visibility, kSymbols[i].other == 0);
        EXPECT_EQ(symbol.version, versions[i]);
        EXPECT_EQ(symbol.version_hidden, (kSymbols[i].version_index & 0x8000) != 0);
    }
    EXPECT_EQ(exported_functions(info), (std::vector<std::string>{"synth_create", "synth_destroy", "synth_select"}));
}

TEST(ElfFile, ReadsEveryFieldOfElf64LittleEndian) { expect_synthetic_fields(true, true, 62, "x86-64"); }
TEST(ElfFile, ReadsEveryFieldOfElf32LittleEndian) { expect_synthetic_fields(false, true, 3, "i386"); }
TEST(ElfFile, ReadsEveryFieldOfElf64BigEndian) { expect_synthetic_fields(true, false, 21, "PowerPC64"); }
TEST(ElfFile, ReadsEveryFieldOfElf32BigEndian) { expect_synthetic_fields(false, false, 20, "PowerPC"); }

TEST(ElfFile, RejectsEveryTruncationOfSyntheticImages) {
    for (const bool is64 : {true, false}) {
        for (const bool little : {true, false}) {
            const std::vector<uint8_t> full = build_image(is64, little, 62);
            for (size_t length = 0; length < full.size(); ++length) {
                SCOPED_TRACE("ELF" + std::to_string(is64 ? 64 : 32) + (little ? " LE" : " BE") + " truncated to " +
                             std::to_string(length) + " bytes");
                ElfInfo info;
                std::string error;
                // The section headers come last, so every proper prefix is missing something.
                EXPECT_FALSE(parse_elf({full.begin(), full.begin() + length}, &info, &error));
                EXPECT_FALSE(error.empty());
                EXPECT_EQ(info.is_elf, length >= 4);
            }
        }
    }
}

TEST(ElfFile, NamesWhereTheSectionHeadersEnd) {
    std::vector<uint8_t> image = build_image(true, true, 62);
    image.resize(image.size() - 10);
    std::string error;
    EXPECT_FALSE(parse_elf(image, nullptr, &error));
    EXPECT_EQ(error, "file is truncated: section headers end at byte " + std::to_string(image.size() + 10) + " of " +
                         std::to_string(image.size()));
}

TEST(ElfFile, WrongMagicIsNotElf) {
    std::vector<uint8_t> image = build_image(true, true, 62);
    image[1] = 'X';
    ElfInfo info;
    std::string error;
    EXPECT_FALSE(parse_elf(image, &info, &error));
    EXPECT_FALSE(info.is_elf);
    EXPECT_EQ(error, "not an ELF file: the first four bytes are not 7f 45 4c 46");
    EXPECT_FALSE(parse_elf(std::vector<uint8_t>{'#', '!'}, &info, &error));
    EXPECT_EQ(error, "not an ELF file: it is only 2 bytes long");
}

TEST(ElfFile, RejectsHugeExtendedSectionCountWithoutAllocating) {
    std::vector<uint8_t> image = build_image(true, true, 62);
    ImageWriter w{true, true, image};
    w.put(60, 0, 2);  // e_shnum 0: the count lives in section 0
    const size_t section_zero = w.bytes.size() - 7 * 64;
    w.word(section_zero + 32, uint64_t{1} << 62);  // sh_size of section 0
    std::string error;
    EXPECT_FALSE(parse_elf(w.bytes, nullptr, &error));
    EXPECT_NE(error.find("section header"), std::string::npos) << error;
}

TEST(ElfFile, RejectsNeededNameOutsideTheStringTable) {
    ImageWriter w{true, true, build_image(true, true, 62)};
    // .dynamic is the last thing before the 7 section headers; its first entry is DT_NEEDED.
    const size_t dynamic = w.bytes.size() - 7 * 64 - 8 * 16;
    w.word(dynamic + 8, 1u << 20);  // far past DT_STRSZ
    std::string error;
    EXPECT_FALSE(parse_elf(w.bytes, nullptr, &error));
    EXPECT_NE(error.find("DT_NEEDED name offset 1048576 is outside"), std::string::npos) << error;
}

TEST(ElfFile, SurvivesRandomByteCorruption) {
    const uint32_t seed = 20240611;
    std::mt19937 random(seed);
    for (const bool is64 : {true, false}) {
        for (const bool little : {true, false}) {
            const std::vector<uint8_t> original = build_image(is64, little, 62);
            for (int round = 0; round < 3000; ++round) {
                std::vector<uint8_t> image = original;
                const int flips = 1 + static_cast<int>(random() % 6);
                for (int i = 0; i < flips; ++i) image[random() % image.size()] = static_cast<uint8_t>(random());
                ElfInfo info;
                std::string error;
                if (!parse_elf(image, &info, &error)) {
                    EXPECT_FALSE(error.empty()) << "seed " << seed << ", round " << round;
                }
            }
        }
    }
}

TEST(ElfFile, ReadsTheRunningTestBinary) {
    ElfInfo info;
    std::string error;
    ASSERT_TRUE(read_elf_file("/proc/self/exe", &info, &error)) << error;
    EXPECT_EQ(info.elf_class, static_cast<int>(8 * sizeof(void *)));
#if defined(__x86_64__)
    EXPECT_EQ(info.machine_name, "x86-64");
#elif defined(__aarch64__)
    EXPECT_EQ(info.machine_name, "AArch64");
#endif
    EXPECT_NE(std::find(info.needed.begin(), info.needed.end(), "libc.so.6"), info.needed.end());
    const bool any_glibc_version =
        std::any_of(info.dynamic_symbols.begin(), info.dynamic_symbols.end(),
                    [](const ElfSymbol &symbol) { return symbol.version.rfind("GLIBC_", 0) == 0; });
    EXPECT_TRUE(any_glibc_version);
}

TEST(ElfFile, ReadsBinTrue) {
    ElfInfo info;
    std::string error;
    ASSERT_TRUE(read_elf_file("/bin/true", &info, &error)) << error;
    EXPECT_NE(std::find(info.needed.begin(), info.needed.end(), "libc.so.6"), info.needed.end());
}

TEST(ElfFile, MissingFileNamesThePath) {
    std::string error;
    EXPECT_FALSE(read_elf_file("/nonexistent/libcudnn.so.8", nullptr, &error));
    EXPECT_EQ(error, "cannot open /nonexistent/libcudnn.so.8: No such file or directory");
    EXPECT_FALSE(read_elf_file("/", nullptr, &error));
    EXPECT_FALSE(error.empty());
}

}  // namespace
}  // namespace librednn::tools
