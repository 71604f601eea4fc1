// Positioned reads of the ELF header, program headers, PT_DYNAMIC and the dynamic string table.
#include "elf_dynamic.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace librednn::doctor {
namespace {

constexpr uint64_t kMaxProgramHeaders = 4096;
constexpr uint64_t kMaxDynamicBytes = 1 << 20;
constexpr uint64_t kMaxStringTable = 64 << 20;

class File {
public:
    explicit File(const std::string &path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
        struct stat info;
        if (fd_ >= 0 && ::fstat(fd_, &info) == 0) size_ = static_cast<uint64_t>(info.st_size);
    }
    ~File() {
        if (fd_ >= 0) ::close(fd_);
    }
    File(const File &) = delete;
    File &operator=(const File &) = delete;
    bool is_open() const { return fd_ >= 0; }
    uint64_t size() const { return size_; }
    bool read(uint64_t offset, uint64_t length, std::vector<uint8_t> *into) const {
        if (offset > size_ || length > size_ - offset) return false;
        into->resize(length);
        uint64_t done = 0;
        while (done < length) {
            const ssize_t got = ::pread(fd_, into->data() + done, length - done, static_cast<off_t>(offset + done));
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0) return false;
            done += static_cast<uint64_t>(got);
        }
        return true;
    }

private:
    int fd_;
    uint64_t size_ = 0;
};

struct Decoder {
    const std::vector<uint8_t> &bytes;
    bool little;
    uint64_t get(uint64_t at, unsigned width) const {
        uint64_t value = 0;
        if (at + width > bytes.size()) return 0;
        for (unsigned i = 0; i < width; ++i) value |= uint64_t{bytes[at + i]} << (8 * (little ? i : width - 1 - i));
        return value;
    }
};

}  // namespace

bool read_elf_dynamic(const std::string &path, ElfDynamic *out, std::string *error) {
    *out = ElfDynamic{};
    File file(path);
    if (!file.is_open()) {
        *error = "cannot open " + path + ": " + std::strerror(errno);
        return false;
    }
    std::vector<uint8_t> header;
    if (!file.read(0, 64, &header) && !file.read(0, 52, &header)) {
        *error = path + " is too short to be an ELF file";
        return false;
    }
    if (std::memcmp(header.data(),
                    "\x7f"
                    "ELF",
                    4) != 0) {
        *error = path + " is not an ELF file";
        return false;
    }
    const bool is64 = header[4] == 2;
    if (is64 && header.size() < 64) {
        *error = path + " is truncated inside its ELF header";
        return false;
    }
    const Decoder h{header, header[5] != 2};
    out->elf_class = is64 ? 64 : 32;
    out->type = static_cast<uint16_t>(h.get(16, 2));
    out->machine = static_cast<uint16_t>(h.get(18, 2));
    const uint64_t phoff = h.get(is64 ? 32 : 28, is64 ? 8 : 4);
    const uint64_t phentsize = h.get(is64 ? 54 : 42, 2), phnum = h.get(is64 ? 56 : 44, 2);
    if (phnum == 0) return true;  // no program headers: nothing dynamic
    if (phnum > kMaxProgramHeaders || phentsize < (is64 ? 56u : 32u)) {
        *error = path + " has malformed program headers";
        return false;
    }
    std::vector<uint8_t> table;
    if (!file.read(phoff, phnum * phentsize, &table)) {
        *error = path + " is truncated inside its program headers";
        return false;
    }
    const Decoder p{table, h.little};
    struct Load {
        uint64_t offset, vaddr, filesz;
    };
    std::vector<Load> loads;
    uint64_t dynamic_offset = 0, dynamic_size = 0;
    bool has_dynamic = false;
    for (uint64_t i = 0; i < phnum; ++i) {
        const uint64_t at = i * phentsize;
        const uint64_t type = p.get(at, 4);
        const uint64_t offset = p.get(at + (is64 ? 8 : 4), is64 ? 8 : 4);
        const uint64_t vaddr = p.get(at + (is64 ? 16 : 8), is64 ? 8 : 4);
        const uint64_t filesz = p.get(at + (is64 ? 32 : 16), is64 ? 8 : 4);
        if (type == 1) loads.push_back({offset, vaddr, filesz});
        if (type == 2 && !has_dynamic) {
            has_dynamic = true;
            dynamic_offset = offset;
            dynamic_size = filesz;
        }
    }
    if (!has_dynamic) return true;
    std::vector<uint8_t> dynamic;
    if (dynamic_size > kMaxDynamicBytes || !file.read(dynamic_offset, dynamic_size, &dynamic)) {
        *error = path + " is truncated inside its dynamic segment";
        return false;
    }
    const Decoder d{dynamic, h.little};
    const unsigned word = is64 ? 8 : 4;
    uint64_t strtab = 0, strsz = 0;
    std::vector<std::pair<uint64_t, uint64_t>> strings;  // (tag, offset)
    for (uint64_t at = 0; at + 2 * word <= dynamic.size(); at += 2 * word) {
        const uint64_t tag = d.get(at, word), value = d.get(at + word, word);
        if (tag == 0) break;
        if (tag == 5) strtab = value;
        if (tag == 10) strsz = value;
        if (tag == 1 || tag == 14 || tag == 15 || tag == 29) strings.emplace_back(tag, value);
    }
    if (strings.empty()) return true;
    uint64_t strtab_offset = 0;
    bool mapped = false;
    for (const Load &load : loads) {
        if (strtab >= load.vaddr && strtab - load.vaddr < load.filesz) {
            strtab_offset = load.offset + (strtab - load.vaddr);
            mapped = true;
            break;
        }
    }
    if (!mapped || strsz == 0 || strsz > kMaxStringTable) {
        *error = path + " has a dynamic string table outside its loadable segments";
        return false;
    }
    std::vector<uint8_t> table_bytes;
    if (!file.read(strtab_offset, strsz, &table_bytes)) {
        *error = path + " is truncated inside its dynamic string table";
        return false;
    }
    for (const auto &[tag, offset] : strings) {
        if (offset >= table_bytes.size()) {
            *error = path + " names a string outside its dynamic string table";
            return false;
        }
        const void *end = std::memchr(table_bytes.data() + offset, 0, table_bytes.size() - offset);
        if (end == nullptr) {
            *error = path + " has an unterminated dynamic string";
            return false;
        }
        std::string text(reinterpret_cast<const char *>(table_bytes.data() + offset),
                         static_cast<const uint8_t *>(end) - (table_bytes.data() + offset));
        if (tag == 1) out->needed.push_back(std::move(text));
        if (tag == 14) out->soname = std::move(text);
        if (tag == 15) out->rpath = std::move(text);
        if (tag == 29) out->runpath = std::move(text);
    }
    return true;
}

}  // namespace librednn::doctor
