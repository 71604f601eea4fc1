// A small, bounds-checked ELF reader: file identity, dynamic section entries and dynamic symbols.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::tools {

struct ElfSymbol {
    std::string name;
    bool defined = false;             // st_shndx is not SHN_UNDEF
    bool global_or_weak = false;      // STB_GLOBAL, STB_WEAK or STB_GNU_UNIQUE
    bool is_function = false;         // STT_FUNC or STT_GNU_IFUNC
    bool default_visibility = false;  // STV_DEFAULT
    std::string version;              // "GLIBC_2.34"; empty when unversioned or no version sections
    bool version_hidden = false;      // non-default version (name@VER rather than name@@VER)
};

struct ElfInfo {
    bool is_elf = false;  // the magic bytes matched, even if the rest turned out to be malformed
    int elf_class = 0;    // 32 or 64
    bool little_endian = true;
    uint16_t machine = 0;      // e_machine
    std::string machine_name;  // "x86-64", "AArch64", "i386", ... or "machine 0x1234"
    uint16_t type = 0;         // e_type: 1 relocatable, 2 executable, 3 shared object / PIE, 4 core
    std::string soname;
    std::vector<std::string> needed;  // DT_NEEDED in file order
    std::string rpath;
    std::string runpath;
    std::vector<ElfSymbol> dynamic_symbols;  // .dynsym without its null entry, in table order
};

// Both return false and set *error (when non-null) to one sentence on any problem. They never read
// out of bounds, whatever the input. *out is reset first; on failure it holds what was read so far.
bool read_elf_file(const std::string &path, ElfInfo *out, std::string *error);
bool parse_elf(const std::vector<uint8_t> &bytes, ElfInfo *out, std::string *error);

// Names a user of the library can call: defined, global or weak, default visibility, functions
// (including GNU indirect functions). Sorted, without duplicates.
std::vector<std::string> exported_functions(const ElfInfo &info);

// "x86-64" for EM_X86_64 and so on; "machine 0x..." for values this reader does not know.
std::string elf_machine_name(uint16_t machine);

}  // namespace librednn::tools
