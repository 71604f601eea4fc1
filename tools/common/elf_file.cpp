// Bounds-checked ELF32/ELF64 parsing of identity, PT_DYNAMIC entries, .dynsym and symbol versions.
#include "elf_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <utility>

namespace librednn::tools {
namespace {

constexpr uint32_t kPtLoad = 1;
constexpr uint32_t kPtDynamic = 2;
constexpr uint64_t kDtNull = 0, kDtNeeded = 1, kDtStrtab = 5, kDtStrsz = 10, kDtSoname = 14, kDtRpath = 15,
                   kDtRunpath = 29;
constexpr uint32_t kShtDynsym = 11;
constexpr uint32_t kShtGnuVerdef = 0x6ffffffd;
constexpr uint32_t kShtGnuVerneed = 0x6ffffffe;
constexpr uint32_t kShtGnuVersym = 0x6fffffff;
constexpr uint16_t kPnXnum = 0xffff;  // e_phnum escape: the real count is in section 0's sh_info

std::string hex(uint64_t value) {
    char text[32];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(value));
    return text;
}

struct Segment {
    uint32_t type = 0;
    uint64_t offset = 0, vaddr = 0, filesz = 0;
};

struct Section {
    uint32_t type = 0, link = 0, info = 0;
    uint64_t offset = 0, size = 0, entsize = 0;
};

class Parser {
public:
    Parser(const std::vector<uint8_t> &bytes, ElfInfo *out) : bytes_(bytes), out_(out) {}

    bool parse() {
        return parse_identity() && parse_header() && parse_program_headers() && parse_section_headers() &&
               parse_dynamic() && parse_dynamic_symbols();
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
    // Fails with "file is truncated: <what> end at byte X of Y" unless [offset, offset+length) fits.
    bool require(uint64_t offset, uint64_t length, const std::string &what) {
        if (fits(offset, length)) return true;
        const bool overflows = length > UINT64_MAX - offset;
        return fail("file is truncated: " + what + " at byte " +
                    (overflows ? "beyond 2^64" : std::to_string(offset + length)) + " of " +
                    std::to_string(bytes_.size()));
    }
    // Callers check ranges first and report them; a read outside the file still yields 0, never UB.
    uint64_t read(uint64_t offset, unsigned width) const {
        if (!fits(offset, width)) return 0;
        uint64_t value = 0;
        for (unsigned i = 0; i < width; ++i) {
            const uint64_t byte = bytes_[offset + i];
            value |= byte << (8 * (little_ ? i : width - 1 - i));
        }
        return value;
    }
    uint64_t word(uint64_t offset) const { return read(offset, is64_ ? 8 : 4); }

    // Reads the NUL-terminated string at `index` of a string table already known to fit the file.
    bool read_string(const Section &table, uint64_t index, const char *what, std::string *text) {
        if (index >= table.size) {
            return fail(std::string(what) + " name offset " + std::to_string(index) +
                        " is outside its string table of " + std::to_string(table.size) + " bytes");
        }
        const uint8_t *start = bytes_.data() + table.offset + index;
        const void *end = std::memchr(start, 0, table.size - index);
        if (end == nullptr) {
            return fail(std::string(what) + " name at string table offset " + std::to_string(index) +
                        " is not NUL-terminated");
        }
        text->assign(reinterpret_cast<const char *>(start), static_cast<const uint8_t *>(end) - start);
        return true;
    }

    bool parse_identity() {
        static const uint8_t kMagic[4] = {0x7f, 'E', 'L', 'F'};
        if (bytes_.size() < 4 || std::memcmp(bytes_.data(), kMagic, 4) != 0) {
            return fail(bytes_.size() < 4
                            ? "not an ELF file: it is only " + std::to_string(bytes_.size()) + " bytes long"
                            : "not an ELF file: the first four bytes are not 7f 45 4c 46");
        }
        out_->is_elf = true;
        if (!require(0, 16, "the ELF identification bytes end")) return false;
        if (bytes_[4] != 1 && bytes_[4] != 2) {
            return fail("unsupported ELF class " + std::to_string(bytes_[4]) + ", expected 1 or 2");
        }
        if (bytes_[5] != 1 && bytes_[5] != 2) {
            return fail("unsupported ELF data encoding " + std::to_string(bytes_[5]) +
                        ", expected 1 (little endian) or 2 (big endian)");
        }
        is64_ = bytes_[4] == 2;
        little_ = bytes_[5] == 1;
        out_->elf_class = is64_ ? 64 : 32;
        out_->little_endian = little_;
        return true;
    }

    bool parse_header() {
        const uint64_t header_size = is64_ ? 64 : 52;
        if (!require(0, header_size, "the ELF header ends")) return false;
        out_->type = static_cast<uint16_t>(read(16, 2));
        out_->machine = static_cast<uint16_t>(read(18, 2));
        out_->machine_name = elf_machine_name(out_->machine);
        phoff_ = word(is64_ ? 32 : 28);
        shoff_ = word(is64_ ? 40 : 32);
        const uint64_t fields = is64_ ? 54 : 42;  // e_phentsize, e_phnum, e_shentsize, e_shnum
        phentsize_ = read(fields, 2);
        phnum_ = read(fields + 2, 2);
        shentsize_ = read(fields + 4, 2);
        shnum_ = read(fields + 6, 2);

        // Extended numbering keeps large counts in the first section header.
        if (shoff_ != 0 && (shnum_ == 0 || phnum_ == kPnXnum)) {
            Section first;
            if (!read_section_header(0, &first)) return false;
            if (shnum_ == 0) shnum_ = first.size;
            if (phnum_ == kPnXnum) phnum_ = first.info;
        }
        return true;
    }

    bool check_table(uint64_t offset, uint64_t count, uint64_t entry_size, uint64_t minimum, const char *what) {
        if (count == 0) return true;
        if (entry_size < minimum) {
            return fail(std::string(what) + " entries are " + std::to_string(entry_size) +
                        " bytes, expected at least " + std::to_string(minimum));
        }
        // Extended numbering can claim up to 2^64 sections; no file holds that many.
        if (count > UINT64_MAX / entry_size) {
            return fail("file is truncated: " + std::to_string(count) + " " + what + "s of " +
                        std::to_string(entry_size) + " bytes do not fit in " + std::to_string(bytes_.size()) +
                        " bytes");
        }
        return require(offset, count * entry_size, std::string(what) + "s end");
    }

    bool read_section_header(uint64_t index, Section *section) {
        const uint64_t minimum = is64_ ? 64 : 40;
        // Section 0 is read before e_shnum is known to be trustworthy, so check it on its own.
        if (!check_table(shoff_, index + 1, shentsize_, minimum, "section header")) return false;
        const uint64_t at = shoff_ + index * shentsize_;
        section->type = static_cast<uint32_t>(read(at + 4, 4));
        section->offset = word(at + (is64_ ? 24 : 16));
        section->size = word(at + (is64_ ? 32 : 20));
        section->link = static_cast<uint32_t>(read(at + (is64_ ? 40 : 24), 4));
        section->info = static_cast<uint32_t>(read(at + (is64_ ? 44 : 28), 4));
        section->entsize = word(at + (is64_ ? 56 : 36));
        return true;
    }

    bool parse_program_headers() {
        if (!check_table(phoff_, phnum_, phentsize_, is64_ ? 56 : 32, "program header")) return false;
        for (uint64_t i = 0; i < phnum_; ++i) {
            const uint64_t at = phoff_ + i * phentsize_;
            Segment segment;
            segment.type = static_cast<uint32_t>(read(at, 4));
            segment.offset = word(at + (is64_ ? 8 : 4));
            segment.vaddr = word(at + (is64_ ? 16 : 8));
            segment.filesz = word(at + (is64_ ? 32 : 16));
            if (segment.type == kPtLoad) loads_.push_back(segment);
            if (segment.type == kPtDynamic && !has_dynamic_) {
                dynamic_ = segment;
                has_dynamic_ = true;
            }
        }
        return true;
    }

    bool parse_section_headers() {
        if (!check_table(shoff_, shnum_, shentsize_, is64_ ? 64 : 40, "section header")) return false;
        sections_.resize(shnum_);
        for (uint64_t i = 0; i < shnum_; ++i) read_section_header(i, &sections_[i]);
        return true;
    }

    // Translates a virtual address to a file offset through the PT_LOAD segment that holds it.
    bool address_to_offset(uint64_t address, uint64_t *offset) const {
        for (const Segment &load : loads_) {
            if (address < load.vaddr || address - load.vaddr >= load.filesz) continue;
            const uint64_t delta = address - load.vaddr;
            if (delta > UINT64_MAX - load.offset) continue;
            *offset = load.offset + delta;
            return true;
        }
        return false;
    }

    bool parse_dynamic() {
        if (!has_dynamic_) return true;  // static executables and relocatable objects have none
        if (!require(dynamic_.offset, dynamic_.filesz, "the dynamic segment ends")) return false;
        const uint64_t entry_size = is64_ ? 16 : 8;
        bool has_strtab = false, has_strsz = false;
        uint64_t strtab_address = 0, strsz = 0;
        std::vector<std::pair<uint64_t, uint64_t>> string_entries;  // (tag, string offset)
        for (uint64_t at = dynamic_.offset; at + entry_size <= dynamic_.offset + dynamic_.filesz; at += entry_size) {
            const uint64_t tag = word(at);
            const uint64_t value = word(at + entry_size / 2);
            if (tag == kDtNull) break;
            if (tag == kDtStrtab) {
                has_strtab = true;
                strtab_address = value;
            } else if (tag == kDtStrsz) {
                has_strsz = true;
                strsz = value;
            } else if (tag == kDtNeeded || tag == kDtSoname || tag == kDtRpath || tag == kDtRunpath) {
                string_entries.emplace_back(tag, value);
            }
        }
        if (string_entries.empty()) return true;
        if (!has_strtab) return fail("the dynamic segment names libraries but has no DT_STRTAB entry");

        Section strtab;
        if (!address_to_offset(strtab_address, &strtab.offset)) {
            return fail("the dynamic string table address " + hex(strtab_address) +
                        " is not inside any PT_LOAD segment's file contents");
        }
        if (strtab.offset > bytes_.size()) {
            return require(strtab.offset, 0, "the dynamic string table starts");
        }
        strtab.size = has_strsz ? strsz : bytes_.size() - strtab.offset;
        if (!require(strtab.offset, strtab.size, "the dynamic string table ends")) return false;

        for (const auto &[tag, index] : string_entries) {
            std::string text;
            const char *what = tag == kDtNeeded   ? "DT_NEEDED"
                               : tag == kDtSoname ? "DT_SONAME"
                               : tag == kDtRpath  ? "DT_RPATH"
                                                  : "DT_RUNPATH";
            if (!read_string(strtab, index, what, &text)) return false;
            if (tag == kDtNeeded) out_->needed.push_back(std::move(text));
            if (tag == kDtSoname) out_->soname = std::move(text);
            if (tag == kDtRpath) out_->rpath = std::move(text);
            if (tag == kDtRunpath) out_->runpath = std::move(text);
        }
        return true;
    }

    const Section *find_section(uint32_t type) const {
        for (const Section &section : sections_) {
            if (section.type == type) return &section;
        }
        return nullptr;
    }

    bool section_contents(const Section &section, const char *what) {
        return require(section.offset, section.size, std::string("section ") + what + " ends");
    }

    // The string table named by a section's sh_link, checked to lie inside the file.
    bool linked_strings(const Section &section, const char *what, Section *strings) {
        if (section.link == 0 || section.link >= sections_.size()) {
            return fail(std::string("section ") + what + " links to string table section " +
                        std::to_string(section.link) + ", which does not exist");
        }
        *strings = sections_[section.link];
        return require(strings->offset, strings->size, std::string("the string table of ") + what + " ends");
    }

    // Version definitions (index -> name) from .gnu.version_d.
    bool read_version_definitions(const Section &verdef) {
        Section strings;
        if (!section_contents(verdef, ".gnu.version_d") || !linked_strings(verdef, ".gnu.version_d", &strings)) {
            return false;
        }
        uint64_t position = 0;
        // Each record is at least 20 bytes, so more records than this means vd_next loops.
        for (uint64_t count = 0; count <= verdef.size / 20; ++count) {
            if (position > verdef.size || verdef.size - position < 20) {
                return fail("a version definition runs past the end of .gnu.version_d");
            }
            const uint64_t at = verdef.offset + position;
            const uint16_t index = static_cast<uint16_t>(read(at + 4, 2) & 0x7fff);
            const uint64_t aux = read(at + 12, 4), next = read(at + 16, 4);
            if (read(at + 6, 2) > 0) {
                if (aux > verdef.size - position || verdef.size - position - aux < 8) {
                    return fail("a version definition's name runs past the end of .gnu.version_d");
                }
                std::string name;
                if (!read_string(strings, read(at + aux, 4), "version definition", &name)) return false;
                version_names_[index] = std::move(name);
            }
            if (next == 0) return true;
            position += next;
        }
        return fail("the version definitions in .gnu.version_d overlap or loop");
    }

    // Version requirements (index -> name) from .gnu.version_r.
    bool read_version_requirements(const Section &verneed) {
        Section strings;
        if (!section_contents(verneed, ".gnu.version_r") || !linked_strings(verneed, ".gnu.version_r", &strings)) {
            return false;
        }
        const uint64_t limit = verneed.size / 16;  // both record kinds are 16 bytes
        uint64_t position = 0, records = 0;
        while (true) {
            if (position > verneed.size || verneed.size - position < 16 || ++records > limit) {
                return fail("a version requirement runs past the end of .gnu.version_r or loops");
            }
            const uint64_t at = verneed.offset + position;
            const uint64_t aux_count = read(at + 2, 2), next = read(at + 12, 4);
            uint64_t aux_position = position + read(at + 8, 4);
            for (uint64_t i = 0; i < aux_count; ++i) {
                if (aux_position > verneed.size || verneed.size - aux_position < 16 || ++records > limit) {
                    return fail("a version requirement entry runs past the end of .gnu.version_r or loops");
                }
                const uint64_t aux_at = verneed.offset + aux_position;
                const uint16_t index = static_cast<uint16_t>(read(aux_at + 6, 2) & 0x7fff);
                std::string name;
                if (!read_string(strings, read(aux_at + 8, 4), "version requirement", &name)) return false;
                version_names_[index] = std::move(name);
                const uint64_t aux_next = read(aux_at + 12, 4);
                if (aux_next == 0) break;
                aux_position += aux_next;
            }
            if (next == 0) return true;
            position += next;
        }
    }

    bool parse_dynamic_symbols() {
        const Section *dynsym = find_section(kShtDynsym);
        if (dynsym == nullptr) return true;
        const uint64_t minimum = is64_ ? 24 : 16;
        const uint64_t entry_size = dynsym->entsize == 0 ? minimum : dynsym->entsize;
        if (entry_size < minimum) {
            return fail(".dynsym entries are " + std::to_string(entry_size) + " bytes, expected at least " +
                        std::to_string(minimum));
        }
        Section strings;
        if (!section_contents(*dynsym, ".dynsym") || !linked_strings(*dynsym, ".dynsym", &strings)) {
            return false;
        }
        const uint64_t count = dynsym->size / entry_size;

        const Section *versym = find_section(kShtGnuVersym);
        if (versym != nullptr) {
            if (!section_contents(*versym, ".gnu.version")) return false;
            if (versym->size / 2 < count) {
                return fail(".gnu.version has " + std::to_string(versym->size / 2) + " entries but .dynsym has " +
                            std::to_string(count) + " symbols");
            }
            const Section *verdef = find_section(kShtGnuVerdef);
            const Section *verneed = find_section(kShtGnuVerneed);
            if (verdef != nullptr && !read_version_definitions(*verdef)) return false;
            if (verneed != nullptr && !read_version_requirements(*verneed)) return false;
        }

        out_->dynamic_symbols.reserve(count > 0 ? count - 1 : 0);
        for (uint64_t i = 1; i < count; ++i) {  // entry 0 is the reserved null symbol
            const uint64_t at = dynsym->offset + i * entry_size;
            const uint8_t info = static_cast<uint8_t>(read(at + (is64_ ? 4 : 12), 1));
            const uint8_t other = static_cast<uint8_t>(read(at + (is64_ ? 5 : 13), 1));
            const uint64_t section_index = read(at + (is64_ ? 6 : 14), 2);
            const unsigned binding = info >> 4, kind = info & 0xf;
            ElfSymbol symbol;
            if (!read_string(strings, read(at, 4), "dynamic symbol", &symbol.name)) return false;
            symbol.defined = section_index != 0;
            symbol.global_or_weak = binding == 1 || binding == 2 || binding == 10;
            symbol.is_function = kind == 2 || kind == 10;
            symbol.default_visibility = (other & 3) == 0;
            if (versym != nullptr) {
                const uint64_t raw = read(versym->offset + 2 * i, 2);
                symbol.version_hidden = (raw & 0x8000) != 0;
                const auto found = version_names_.find(static_cast<uint16_t>(raw & 0x7fff));
                // Indices 0 (local) and 1 (global) carry no version; 1 is also the file's own base name.
                if ((raw & 0x7fff) > 1 && found != version_names_.end()) symbol.version = found->second;
            }
            out_->dynamic_symbols.push_back(std::move(symbol));
        }
        return true;
    }

    const std::vector<uint8_t> &bytes_;
    ElfInfo *out_;
    std::string error_;
    bool is64_ = false, little_ = true;
    uint64_t phoff_ = 0, shoff_ = 0, phentsize_ = 0, phnum_ = 0, shentsize_ = 0, shnum_ = 0;
    std::vector<Segment> loads_;
    Segment dynamic_;
    bool has_dynamic_ = false;
    std::vector<Section> sections_;
    std::map<uint16_t, std::string> version_names_;
};

}  // namespace

std::string elf_machine_name(uint16_t machine) {
    switch (machine) {
        case 2: return "SPARC";
        case 3: return "i386";
        case 8: return "MIPS";
        case 20: return "PowerPC";
        case 21: return "PowerPC64";
        case 22: return "S/390";
        case 40: return "ARM";
        case 43: return "SPARC V9";
        case 62: return "x86-64";
        case 183: return "AArch64";
        case 243: return "RISC-V";
        case 258: return "LoongArch";
        default: return "machine " + hex(machine);
    }
}

bool parse_elf(const std::vector<uint8_t> &bytes, ElfInfo *out, std::string *error) {
    ElfInfo scratch;
    if (out == nullptr) out = &scratch;
    *out = ElfInfo{};
    Parser parser(bytes, out);
    const bool ok = parser.parse();
    if (error != nullptr) *error = ok ? std::string() : parser.error();
    return ok;
}

bool read_elf_file(const std::string &path, ElfInfo *out, std::string *error) {
    ElfInfo scratch;
    if (out == nullptr) out = &scratch;
    *out = ElfInfo{};
    std::unique_ptr<FILE, int (*)(FILE *)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file) {
        if (error != nullptr) *error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    std::vector<uint8_t> bytes;
    uint8_t chunk[1 << 16];
    size_t got = 0;
    while ((got = std::fread(chunk, 1, sizeof chunk, file.get())) > 0) {
        bytes.insert(bytes.end(), chunk, chunk + got);
    }
    if (std::ferror(file.get())) {
        if (error != nullptr) *error = "cannot read " + path + ": " + std::strerror(errno);
        return false;
    }
    std::string parse_error;
    const bool ok = parse_elf(bytes, out, &parse_error);
    if (error != nullptr) *error = ok ? std::string() : path + ": " + parse_error;
    return ok;
}

std::vector<std::string> exported_functions(const ElfInfo &info) {
    std::vector<std::string> names;
    for (const ElfSymbol &symbol : info.dynamic_symbols) {
        if (symbol.defined && symbol.global_or_weak && symbol.default_visibility && symbol.is_function &&
            !symbol.name.empty()) {
            names.push_back(symbol.name);
        }
    }
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

}  // namespace librednn::tools
