// The dynamic-linking facts of an ELF file (class, machine, SONAME, NEEDED, RPATH, RUNPATH) read with
// a few positioned reads, for walking the dependency tree of a program whose libraries weigh gigabytes
// (elf_file.hpp reads whole files; it is the one that validates a library completely).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::doctor {

struct ElfDynamic {
    int elf_class = 0;  // 32 or 64
    uint16_t machine = 0;
    uint16_t type = 0;  // 2 executable, 3 shared object or PIE
    std::string soname, rpath, runpath;
    std::vector<std::string> needed;
};

// False with *error (one sentence) when the file cannot be read or its headers are malformed.
bool read_elf_dynamic(const std::string &path, ElfDynamic *out, std::string *error);

}  // namespace librednn::doctor
