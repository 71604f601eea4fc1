// A small, bounds-checked PE/COFF reader: machine type, imported DLL names and the version resource.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::tools {

// Four 16-bit parts, as VS_FIXEDFILEINFO stores them: 8.9.7.29 is {8, 9, 7, 29}.
struct PeVersion {
    uint16_t parts[4] = {0, 0, 0, 0};
    std::string text() const;  // "8.9.7.29"
};

struct PeInfo {
    bool is_pe = false;                // the MZ and PE signatures matched, even if the rest turned out to be malformed
    uint16_t machine = 0;              // IMAGE_FILE_HEADER.Machine
    std::string machine_name;          // "x86-64 (AMD64)", "x86 (i386)", "ARM64", ... or "machine 0x1234"
    bool is_64bit = false;             // optional header magic 0x20b (PE32+)
    bool is_dll = false;               // IMAGE_FILE_DLL in the characteristics
    std::vector<std::string> imports;  // DLL names of the import directory, in file order
    std::vector<std::string> delay_imports;  // DLL names of the delay-load import directory
    bool has_version = false;                // a VS_FIXEDFILEINFO was found in an RT_VERSION resource
    PeVersion file_version;
    PeVersion product_version;
};

// Both return false and set *error (when non-null) to one sentence on any problem. They never read
// out of bounds, whatever the input. *out is reset first; on failure it holds what was read so far.
// A file without imports or without a version resource is not an error.
bool read_pe_file(const std::string &path, PeInfo *out, std::string *error);
bool parse_pe(const std::vector<uint8_t> &bytes, PeInfo *out, std::string *error);

// "x86-64 (AMD64)" for IMAGE_FILE_MACHINE_AMD64 and so on; "machine 0x..." for values not known here.
std::string pe_machine_name(uint16_t machine);

constexpr uint16_t kPeMachineI386 = 0x014c;
constexpr uint16_t kPeMachineAmd64 = 0x8664;
constexpr uint16_t kPeMachineArm64 = 0xaa64;

}  // namespace librednn::tools
