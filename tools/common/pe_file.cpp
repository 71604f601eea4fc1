// Bounds-checked PE32/PE32+ parsing: COFF header, section table, import and delay-import directories,
// and the VS_FIXEDFILEINFO of the RT_VERSION resource.
#include "pe_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <utility>

namespace librednn::tools {
namespace {

constexpr uint32_t kDirectoryImport = 1, kDirectoryResource = 2, kDirectoryDelayImport = 13;
constexpr uint32_t kResourceTypeVersion = 16;  // RT_VERSION
constexpr uint32_t kFixedFileInfoSignature = 0xfeef04bd;
constexpr uint16_t kCharacteristicDll = 0x2000;
constexpr size_t kMaxDllName = 512;       // Windows paths are far shorter; a longer "name" is garbage
constexpr size_t kMaxDescriptors = 4096;  // no real image imports from more DLLs than this

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

struct Section {
    uint32_t virtual_address = 0, virtual_size = 0, raw_size = 0, raw_offset = 0;
};

class Parser {
public:
    Parser(const std::vector<uint8_t> &bytes, PeInfo *out) : bytes_(bytes), out_(out) {}

    bool parse() {
        return parse_headers() && parse_sections() && parse_imports() && parse_delay_imports() && parse_version();
    }
    const std::string &error() const { return error_; }

private:
    bool fail(std::string message) {
        error_ = std::move(message);
        return false;
    }
    bool fits(uint64_t offset, uint64_t length) const {
        return offset <= bytes_.size() && length <= bytes_.size() - offset;
    }
    bool require(uint64_t offset, uint64_t length, const std::string &what) {
        if (fits(offset, length)) return true;
        return fail("file is truncated: " + what + " at byte " + std::to_string(offset + length) + " of " +
                    std::to_string(bytes_.size()));
    }
    // Little-endian read; callers check ranges first, and a read outside the file yields 0, never UB.
    uint64_t read(uint64_t offset, unsigned width) const {
        if (!fits(offset, width)) return 0;
        uint64_t value = 0;
        for (unsigned i = 0; i < width; ++i) value |= static_cast<uint64_t>(bytes_[offset + i]) << (8 * i);
        return value;
    }

    bool parse_headers() {
        if (bytes_.size() < 2 || bytes_[0] != 'M' || bytes_[1] != 'Z') {
            return fail("not a PE file: it does not start with the MZ signature");
        }
        if (!require(0, 64, "the DOS header ends")) return false;
        pe_offset_ = read(0x3c, 4);
        if (!fits(pe_offset_, 4) || std::memcmp(bytes_.data() + pe_offset_, "PE\0\0", 4) != 0) {
            return fail(fits(pe_offset_, 4) ? "not a PE file: no PE signature at the offset the DOS header names"
                                            : "file is truncated: the PE signature at byte " +
                                                  std::to_string(pe_offset_) + " lies beyond the end of the file");
        }
        out_->is_pe = true;
        const uint64_t coff = pe_offset_ + 4;
        if (!require(coff, 20, "the COFF header ends")) return false;
        out_->machine = static_cast<uint16_t>(read(coff, 2));
        out_->machine_name = pe_machine_name(out_->machine);
        section_count_ = read(coff + 2, 2);
        const uint64_t optional_size = read(coff + 16, 2);
        out_->is_dll = (read(coff + 18, 2) & kCharacteristicDll) != 0;
        optional_ = coff + 20;
        section_table_ = optional_ + optional_size;
        if (optional_size == 0) return true;  // object files have no optional header and no directories
        if (!require(optional_, 2, "the optional header ends")) return false;
        const uint64_t magic = read(optional_, 2);
        if (magic != 0x10b && magic != 0x20b) {
            return fail("unknown optional header magic " + hex(magic) + ", expected 0x10b (PE32) or 0x20b (PE32+)");
        }
        out_->is_64bit = magic == 0x20b;
        const uint64_t count_at = out_->is_64bit ? 108 : 92;
        if (optional_size < count_at + 4) {
            return fail("the optional header is " + std::to_string(optional_size) + " bytes, too short to hold its " +
                        "data directory count");
        }
        if (!require(optional_, optional_size, "the optional header ends")) return false;
        image_base_ = out_->is_64bit ? read(optional_ + 24, 8) : read(optional_ + 28, 4);
        headers_size_ = read(optional_ + 60, 4);
        directory_count_ = read(optional_ + count_at, 4);
        directories_ = optional_ + count_at + 4;
        // Only the directories that fit inside the declared optional header count.
        const uint64_t room = (optional_size - count_at - 4) / 8;
        if (directory_count_ > room) directory_count_ = room;
        return true;
    }

    bool parse_sections() {
        if (section_count_ == 0) return true;
        if (!require(section_table_, section_count_ * 40, "the section table ends")) return false;
        for (uint64_t i = 0; i < section_count_; ++i) {
            const uint64_t at = section_table_ + i * 40;
            Section section;
            section.virtual_size = static_cast<uint32_t>(read(at + 8, 4));
            section.virtual_address = static_cast<uint32_t>(read(at + 12, 4));
            section.raw_size = static_cast<uint32_t>(read(at + 16, 4));
            section.raw_offset = static_cast<uint32_t>(read(at + 20, 4));
            sections_.push_back(section);
        }
        return true;
    }

    // The file offset of an RVA and how many bytes of file data follow it in the same section.
    bool locate(uint64_t rva, uint64_t *offset, uint64_t *available) const {
        if (rva < headers_size_ && rva < bytes_.size()) {
            *offset = rva;
            *available = std::min<uint64_t>(headers_size_, bytes_.size()) - rva;
            return true;
        }
        for (const Section &section : sections_) {
            if (rva < section.virtual_address || rva - section.virtual_address >= section.raw_size) continue;
            const uint64_t delta = rva - section.virtual_address;
            const uint64_t start = static_cast<uint64_t>(section.raw_offset) + delta;
            if (start >= bytes_.size()) return false;
            *offset = start;
            *available = std::min<uint64_t>(section.raw_size - delta, bytes_.size() - start);
            return true;
        }
        return false;
    }

    bool directory(uint32_t index, uint64_t *rva, uint64_t *size) const {
        if (index >= directory_count_) return false;
        *rva = read(directories_ + 8 * index, 4);
        *size = read(directories_ + 8 * index + 4, 4);
        return *rva != 0;
    }

    bool read_name(uint64_t rva, const char *what, std::string *name) {
        uint64_t offset = 0, available = 0;
        if (!locate(rva, &offset, &available)) {
            return fail(std::string(what) + " DLL name at RVA " + hex(rva) + " lies outside the file's sections");
        }
        const uint64_t limit = std::min<uint64_t>(available, kMaxDllName);
        const void *end = std::memchr(bytes_.data() + offset, 0, limit);
        if (end == nullptr) {
            return fail(std::string(what) + " DLL name at RVA " + hex(rva) + " is not NUL-terminated within " +
                        std::to_string(limit) + " bytes");
        }
        name->assign(reinterpret_cast<const char *>(bytes_.data() + offset),
                     static_cast<const uint8_t *>(end) - (bytes_.data() + offset));
        return true;
    }

    bool parse_imports() {
        uint64_t rva = 0, size = 0, offset = 0, available = 0;
        if (!directory(kDirectoryImport, &rva, &size)) return true;
        if (!locate(rva, &offset, &available)) {
            return fail("the import directory at RVA " + hex(rva) + " lies outside the file's sections");
        }
        for (uint64_t i = 0; i < kMaxDescriptors; ++i) {
            if (available < 20 * (i + 1)) return fail("the import directory runs past the end of its section");
            const uint64_t at = offset + 20 * i;
            const uint64_t name_rva = read(at + 12, 4);
            if (name_rva == 0 && read(at, 4) == 0 && read(at + 16, 4) == 0) return true;  // the null terminator
            std::string name;
            if (!read_name(name_rva, "an imported", &name)) return false;
            out_->imports.push_back(std::move(name));
        }
        return fail("the import directory names more than " + std::to_string(kMaxDescriptors) + " DLLs");
    }

    bool parse_delay_imports() {
        uint64_t rva = 0, size = 0, offset = 0, available = 0;
        if (!directory(kDirectoryDelayImport, &rva, &size)) return true;
        if (!locate(rva, &offset, &available)) {
            return fail("the delay-load import directory at RVA " + hex(rva) + " lies outside the file's sections");
        }
        for (uint64_t i = 0; i < kMaxDescriptors; ++i) {
            if (available < 32 * (i + 1))
                return fail("the delay-load import directory runs past the end of its section");
            const uint64_t at = offset + 32 * i;
            const uint64_t attributes = read(at, 4);
            uint64_t name_rva = read(at + 4, 4);
            if (name_rva == 0) return true;
            // Attribute bit 0 clear: an old image that stores virtual addresses instead of RVAs.
            if ((attributes & 1) == 0 && name_rva >= image_base_) name_rva -= image_base_;
            std::string name;
            if (!read_name(name_rva, "a delay-loaded", &name)) return false;
            out_->delay_imports.push_back(std::move(name));
        }
        return fail("the delay-load import directory names more than " + std::to_string(kMaxDescriptors) + " DLLs");
    }

    // One level of the resource tree: the entry whose id is `id` (or the first one when id < 0).
    // Offsets inside the tree are relative to the start of the resource directory.
    bool resource_entry(uint64_t directory_offset, long id, uint64_t *entry_value) {
        if (directory_offset > resource_size_ || resource_size_ - directory_offset < 16) {
            return fail("a resource directory lies outside the resource section");
        }
        const uint64_t at = resource_offset_ + directory_offset;
        const uint64_t count = read(at + 12, 2) + read(at + 14, 2);
        if ((resource_size_ - directory_offset - 16) / 8 < count) {
            return fail("a resource directory's entries run past the end of the resource section");
        }
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t name = read(at + 16 + 8 * i, 4);
            if (id >= 0 && name != static_cast<uint64_t>(id)) continue;
            *entry_value = read(at + 16 + 8 * i + 4, 4);
            return true;
        }
        *entry_value = 0;
        return false;
    }

    bool parse_version() {
        uint64_t rva = 0, size = 0;
        if (!directory(kDirectoryResource, &rva, &size)) return true;
        if (!locate(rva, &resource_offset_, &resource_size_)) {
            return fail("the resource directory at RVA " + hex(rva) + " lies outside the file's sections");
        }
        // Type (RT_VERSION) -> name (any) -> language (any): the first two lead to subdirectories,
        // the last to a data entry. The high bit of an entry's value marks a subdirectory.
        constexpr uint64_t kSubdirectory = 0x80000000;
        uint64_t value = 0;
        if (!resource_entry(0, kResourceTypeVersion, &value)) return error_.empty();
        for (int level = 0; level < 2; ++level) {
            if ((value & kSubdirectory) == 0) return fail("the version resource tree is malformed");
            if (!resource_entry(value & ~kSubdirectory, -1, &value)) {
                return error_.empty() ? fail("the version resource tree has an empty directory") : false;
            }
        }
        if ((value & kSubdirectory) != 0 || value > resource_size_ || resource_size_ - value < 16) {
            return fail("the version resource's data entry lies outside the resource section");
        }
        const uint64_t data_rva = read(resource_offset_ + value, 4), data_size = read(resource_offset_ + value + 4, 4);
        uint64_t data = 0, available = 0;
        if (!locate(data_rva, &data, &available) || available < data_size) {
            return fail("the version resource's data at RVA " + hex(data_rva) + " lies outside the file");
        }
        return parse_version_info(data, data_size);
    }

    // VS_VERSIONINFO: wLength, wValueLength, wType, the UTF-16 key "VS_VERSION_INFO", padding to
    // 32 bits, then VS_FIXEDFILEINFO as its value.
    bool parse_version_info(uint64_t data, uint64_t size) {
        static const char kKey[] = "VS_VERSION_INFO";
        constexpr uint64_t kKeyChars = sizeof kKey;  // including the terminating NUL
        constexpr uint64_t kValueAt = (6 + 2 * kKeyChars + 3) / 4 * 4;
        if (size < kValueAt) return fail("the version resource is " + std::to_string(size) + " bytes, too short");
        for (uint64_t i = 0; i < kKeyChars; ++i) {
            if (read(data + 6 + 2 * i, 2) != static_cast<uint8_t>(kKey[i])) {
                return fail("the version resource does not start with the key VS_VERSION_INFO");
            }
        }
        const uint64_t value_length = read(data + 2, 2);
        if (value_length < 52 || size - kValueAt < 52) return true;  // no fixed info: nothing to report
        const uint64_t fixed = data + kValueAt;
        if (read(fixed, 4) != kFixedFileInfoSignature) {
            return fail("the version resource's VS_FIXEDFILEINFO lacks its signature 0xfeef04bd");
        }
        auto version = [&](uint64_t at, PeVersion *out) {
            const uint64_t most = read(at, 4), least = read(at + 4, 4);
            out->parts[0] = static_cast<uint16_t>(most >> 16);
            out->parts[1] = static_cast<uint16_t>(most);
            out->parts[2] = static_cast<uint16_t>(least >> 16);
            out->parts[3] = static_cast<uint16_t>(least);
        };
        version(fixed + 8, &out_->file_version);
        version(fixed + 16, &out_->product_version);
        out_->has_version = true;
        return true;
    }

    const std::vector<uint8_t> &bytes_;
    PeInfo *out_;
    std::string error_;
    uint64_t pe_offset_ = 0, optional_ = 0, section_table_ = 0, section_count_ = 0;
    uint64_t image_base_ = 0, headers_size_ = 0, directory_count_ = 0, directories_ = 0;
    uint64_t resource_offset_ = 0, resource_size_ = 0;
    std::vector<Section> sections_;
};

}  // namespace

std::string PeVersion::text() const {
    return std::to_string(parts[0]) + "." + std::to_string(parts[1]) + "." + std::to_string(parts[2]) + "." +
           std::to_string(parts[3]);
}

std::string pe_machine_name(uint16_t machine) {
    switch (machine) {
        case kPeMachineI386: return "x86 (i386)";
        case kPeMachineAmd64: return "x86-64 (AMD64)";
        case kPeMachineArm64: return "ARM64";
        case 0x01c0: return "ARM";
        case 0x01c4: return "ARM Thumb-2";
        case 0x0200: return "Itanium";
        default: return "machine " + hex(machine);
    }
}

bool parse_pe(const std::vector<uint8_t> &bytes, PeInfo *out, std::string *error) {
    PeInfo scratch;
    if (out == nullptr) out = &scratch;
    *out = PeInfo{};
    Parser parser(bytes, out);
    const bool ok = parser.parse();
    if (error != nullptr) *error = ok ? std::string() : parser.error();
    return ok;
}

bool read_pe_file(const std::string &path, PeInfo *out, std::string *error) {
    PeInfo scratch;
    if (out == nullptr) out = &scratch;
    *out = PeInfo{};
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        if (error != nullptr) *error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    std::vector<uint8_t> bytes;
    uint8_t chunk[1 << 16];
    size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) bytes.insert(bytes.end(), chunk, chunk + got);
    if (std::ferror(file.get())) {
        if (error != nullptr) *error = "cannot read " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string parse_error;
    const bool ok = parse_pe(bytes, out, &parse_error);
    if (error != nullptr) *error = ok ? std::string() : path + ": " + parse_error;
    return ok;
}

}  // namespace librednn::tools
