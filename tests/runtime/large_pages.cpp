// core/large_pages.hpp: the allocator of the cycle kernel's large arrays. Whether
// the system gives large pages is its own choice (a hint); what the allocator
// promises is checked here: a large allocation starts on a 2 MiB boundary, a
// small one is ordinary, and a vector on it keeps what it holds as it grows.
#include <doctest/doctest.h>

#include <fabric/core/large_pages.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace unit_large_pages {  // the unit's own names: tests/CMakeLists.txt builds units in batches

namespace {
using fabric::detail::LargePageAllocator;
constexpr std::size_t large = LargePageAllocator<char>::large_page_bytes;

bool on_boundary(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }
}  // namespace

TEST_CASE("LargePageAllocator: allocations of 2 MiB or more start on a 2 MiB boundary, smaller ones are ordinary") {
    CHECK(large == std::size_t{2} << 20);
    LargePageAllocator<std::uint64_t> alloc;
    for (const std::size_t bytes : {large, large + 8, 3 * large + 4096}) {
        const std::size_t n = bytes / sizeof(std::uint64_t);
        std::uint64_t* p = alloc.allocate(n);
        CHECK(on_boundary(p, large));
        for (std::size_t i = 0; i < n; ++i) p[i] = i * 3 + 1;  // every byte is usable
        std::uint64_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += p[i] != i * 3 + 1;
        CHECK(wrong == 0);
        alloc.deallocate(p, n);
    }
    std::uint64_t* small = alloc.allocate(100);
    CHECK(on_boundary(small, alignof(std::uint64_t)));
    alloc.deallocate(small, 100);
    CHECK_THROWS_AS((void)alloc.allocate(LargePageAllocator<std::uint64_t>::max_elements() + 1), std::bad_array_new_length);
}

TEST_CASE("LargePageAllocator: a vector on it holds what a std::vector holds, through growth past 2 MiB") {
    struct Record {
        std::uint32_t a;
        std::uint16_t b;
        std::uint8_t c;
    };
    std::vector<Record, LargePageAllocator<Record>> onto;
    std::vector<Record> plain;
    for (std::uint32_t i = 0; i < 3 * large / sizeof(Record); ++i) {  // several reallocations, the last ones large
        const Record r{i * 7, static_cast<std::uint16_t>(i), static_cast<std::uint8_t>(i * 5)};
        onto.push_back(r);
        plain.push_back(r);
    }
    REQUIRE(onto.size() == plain.size());
    CHECK(on_boundary(onto.data(), large));
    std::size_t differ = 0;
    for (std::size_t i = 0; i < onto.size(); ++i)
        differ += onto[i].a != plain[i].a || onto[i].b != plain[i].b || onto[i].c != plain[i].c;
    CHECK(differ == 0);
    onto.assign(10, Record{1, 2, 3});  // back to small: the large storage is kept, as std::vector keeps it
    CHECK(onto.size() == 10);
    CHECK(onto[9].c == 3);
    const LargePageAllocator<int> other(onto.get_allocator());  // rebinding, as containers do
    CHECK(other == onto.get_allocator());
}

}  // namespace unit_large_pages
