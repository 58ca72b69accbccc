// Storage for the large arrays a kernel walks at random (a cycle-kernel run's
// input VCs and buffers): past a core's cache their reads also miss the address
// translation cache, one page of 4 KiB at a time. An allocation of 2 MiB or
// more is placed on 2 MiB boundaries, and on Linux the kernel is asked to back it
// with pages of that size (transparent huge pages, where the system allows them
// for such a request). It changes no value a program computes; a large page is
// backed whole once touched, so a growing array may hold up to one more than it
// uses. Elsewhere, or below 2 MiB, it is the ordinary allocation.
#pragma once

#include <cstddef>
#include <new>

#if defined(__linux__) && __has_include(<sys/mman.h>)
#include <sys/mman.h>
#define FABRIC_LARGE_PAGES 1
#else
#define FABRIC_LARGE_PAGES 0
#endif

namespace fabric::detail {

/// A standard allocator that asks for large pages under allocations of at least `large_page_bytes`.
template <class T>
struct LargePageAllocator {
    using value_type = T;
    static constexpr std::size_t large_page_bytes = std::size_t{2} << 20;

    constexpr LargePageAllocator() = default;
    template <class U>
    constexpr LargePageAllocator(const LargePageAllocator<U>&) {}  // NOLINT: rebinding is implicit

    [[nodiscard]] T* allocate(std::size_t n) {
        if (n > max_elements()) throw std::bad_array_new_length();
        const std::size_t bytes = n * sizeof(T);
        if (bytes < large_page_bytes) return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
        // From a large page's boundary: every whole large page of it can be one.
        void* p = ::operator new(bytes, std::align_val_t{large_page_bytes});
#if FABRIC_LARGE_PAGES
        (void)::madvise(p, bytes, MADV_HUGEPAGE);  // a hint: refused, the pages stay small
#endif
        return static_cast<T*>(p);
    }
    void deallocate(T* p, std::size_t n) noexcept {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < large_page_bytes) {
            ::operator delete(p, std::align_val_t{alignof(T)});
            return;
        }
        ::operator delete(p, std::align_val_t{large_page_bytes});
    }
    [[nodiscard]] static constexpr std::size_t max_elements() { return (std::size_t{0} - 1) / 2 / sizeof(T); }

    template <class U>
    constexpr bool operator==(const LargePageAllocator<U>&) const {
        return true;
    }
};

}  // namespace fabric::detail
