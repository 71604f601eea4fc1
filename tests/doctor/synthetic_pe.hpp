// Writes small PE32/PE32+ DLL images with chosen machine, imports, delay imports and version resource.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace librednn::tools::testing {

struct SyntheticPe {
    uint16_t machine = 0x8664;  // AMD64
    bool pe32_plus = true;
    std::vector<std::string> imports;
    std::vector<std::string> delay_imports;
    bool with_version = false;
    uint16_t file_version[4] = {0, 0, 0, 0};
    uint16_t product_version[4] = {0, 0, 0, 0};

    // Headers in the first 0x200 bytes, then one section ".rdata" at RVA 0x1000 holding the import
    // descriptors, the delay-load descriptors, the DLL names and the resource tree.
    std::vector<uint8_t> build() const {
        constexpr uint32_t kSectionRva = 0x1000, kSectionOffset = 0x200;
        std::vector<uint8_t> section;
        auto put = [](std::vector<uint8_t> &bytes, size_t at, uint64_t value, unsigned width) {
            if (bytes.size() < at + width) bytes.resize(at + width);
            for (unsigned i = 0; i < width; ++i) bytes[at + i] = static_cast<uint8_t>(value >> (8 * i));
        };
        auto align = [](std::vector<uint8_t> &bytes, size_t alignment) {
            bytes.resize((bytes.size() + alignment - 1) / alignment * alignment);
            return bytes.size();
        };
        auto add_name = [&](const std::string &name) {
            const size_t at = section.size();
            section.insert(section.end(), name.begin(), name.end());
            section.push_back(0);
            return static_cast<uint32_t>(kSectionRva + at);
        };

        // Import descriptors (20 bytes each, a zero one last), then delay descriptors (32 bytes each).
        const size_t imports_at = 0;
        section.resize(20 * (imports.size() + 1));
        const size_t delay_at = align(section, 8);
        section.resize(delay_at + 32 * (delay_imports.size() + 1));
        for (size_t i = 0; i < imports.size(); ++i) {
            const uint32_t name = add_name(imports[i]);
            put(section, imports_at + 20 * i, 0x2000, 4);  // OriginalFirstThunk: any non-zero RVA
            put(section, imports_at + 20 * i + 12, name, 4);
            put(section, imports_at + 20 * i + 16, 0x2000, 4);
        }
        for (size_t i = 0; i < delay_imports.size(); ++i) {
            const uint32_t name = add_name(delay_imports[i]);
            put(section, delay_at + 32 * i, 1, 4);  // RVA-based
            put(section, delay_at + 32 * i + 4, name, 4);
        }

        size_t resource_at = 0, resource_size = 0;
        if (with_version) {
            // Type directory -> name directory -> language directory -> data entry -> VS_VERSIONINFO.
            resource_at = align(section, 8);
            const size_t type_dir = 0, name_dir = 24, language_dir = 48, data_entry = 72, info = 88;
            section.resize(resource_at + info);
            auto directory = [&](size_t at, uint32_t id, uint32_t value) {
                put(section, resource_at + at + 14, 1, 2);  // one id entry
                put(section, resource_at + at + 16, id, 4);
                put(section, resource_at + at + 20, value, 4);
            };
            directory(type_dir, 16, 0x80000000u | name_dir);
            directory(name_dir, 1, 0x80000000u | language_dir);
            directory(language_dir, 0x409, data_entry);
            const char key[] = "VS_VERSION_INFO";
            const size_t info_size = 40 + 52;
            put(section, resource_at + data_entry, kSectionRva + resource_at + info, 4);
            put(section, resource_at + data_entry + 4, info_size, 4);
            const size_t v = resource_at + info;
            put(section, v, info_size, 2);
            put(section, v + 2, 52, 2);
            for (size_t i = 0; i < sizeof key; ++i) put(section, v + 6 + 2 * i, static_cast<uint8_t>(key[i]), 2);
            const size_t fixed = v + 40;
            put(section, fixed, 0xfeef04bd, 4);
            put(section, fixed + 4, 0x10000, 4);
            put(section, fixed + 8, uint32_t(file_version[0]) << 16 | file_version[1], 4);
            put(section, fixed + 12, uint32_t(file_version[2]) << 16 | file_version[3], 4);
            put(section, fixed + 16, uint32_t(product_version[0]) << 16 | product_version[1], 4);
            put(section, fixed + 20, uint32_t(product_version[2]) << 16 | product_version[3], 4);
            put(section, fixed + 51, 0, 1);
            resource_size = section.size() - resource_at;
        }
        align(section, 0x200);

        std::vector<uint8_t> image(kSectionOffset, 0);
        image[0] = 'M';
        image[1] = 'Z';
        put(image, 0x3c, 0x40, 4);
        image[0x40] = 'P';
        image[0x41] = 'E';
        const size_t coff = 0x44, optional = coff + 20;
        const size_t optional_size = pe32_plus ? 240 : 224;
        put(image, coff, machine, 2);
        put(image, coff + 2, 1, 2);  // one section
        put(image, coff + 16, optional_size, 2);
        put(image, coff + 18, 0x2022, 2);  // executable image, large address aware, DLL
        put(image, optional, pe32_plus ? 0x20b : 0x10b, 2);
        if (pe32_plus) {
            put(image, optional + 24, 0x180000000ull, 8);
        } else {
            put(image, optional + 28, 0x10000000, 4);
        }
        put(image, optional + 60, kSectionOffset, 4);  // SizeOfHeaders
        const size_t count_at = pe32_plus ? 108 : 92, directories = count_at + 4;
        put(image, optional + count_at, 16, 4);
        put(image, optional + directories + 8 * 1, kSectionRva + imports_at, 4);
        put(image, optional + directories + 8 * 1 + 4, 20 * (imports.size() + 1), 4);
        if (with_version) {
            put(image, optional + directories + 8 * 2, kSectionRva + resource_at, 4);
            put(image, optional + directories + 8 * 2 + 4, resource_size, 4);
        }
        if (!delay_imports.empty()) {
            put(image, optional + directories + 8 * 13, kSectionRva + delay_at, 4);
            put(image, optional + directories + 8 * 13 + 4, 32 * (delay_imports.size() + 1), 4);
        }
        const size_t header = optional + optional_size;
        const char name[8] = {'.', 'r', 'd', 'a', 't', 'a', 0, 0};
        for (size_t i = 0; i < 8; ++i) image[header + i] = static_cast<uint8_t>(name[i]);
        put(image, header + 8, section.size(), 4);
        put(image, header + 12, kSectionRva, 4);
        put(image, header + 16, section.size(), 4);
        put(image, header + 20, kSectionOffset, 4);
        image.insert(image.end(), section.begin(), section.end());
        return image;
    }
};

}  // namespace librednn::tools::testing
