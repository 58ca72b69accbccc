// Results as bytes, so that a run done on one MPI rank can be handed to another
// (dist/sweep.hpp). The ranks are processes of one build of one program on one
// kind of machine, so a trivially copyable value travels as its object
// representation; strings, vectors and optionals as a length or a flag and their
// elements; a struct adapted for Boost.Hana (BOOST_HANA_DEFINE_STRUCT, or
// BOOST_HANA_ADAPT_STRUCT for one you do not own) member by member. Any other type
// specialises fabric::dist::Codec<T> with static encode(ByteWriter&, const T&)
// and decode(ByteReader&, T&). A trivially copyable struct with padding carries
// its padding bytes along; adapt it for Hana when its encoding should be the
// same bytes every time (dist/results.hpp does for the library's). Needs no MPI.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/hana/accessors.hpp>
#include <boost/hana/concept/struct.hpp>
#include <boost/hana/for_each.hpp>
#include <boost/hana/second.hpp>

#include <fabric/core/error.hpp>

namespace fabric::dist {

class ByteWriter {
public:
    void raw(const void* p, std::size_t n) {
        if (n == 0) return;  // an empty vector's data() may be null
        const auto* b = static_cast<const std::byte*>(p);
        bytes_.insert(bytes_.end(), b, b + n);
    }
    [[nodiscard]] const std::vector<std::byte>& bytes() const { return bytes_; }
    [[nodiscard]] std::vector<std::byte> take() { return std::move(bytes_); }

private:
    std::vector<std::byte> bytes_;
};

class ByteReader {
public:
    explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
    void raw(void* p, std::size_t n) {
        detail::require(n <= bytes_.size() - at_, "a result's bytes end early: ", n, " more wanted at byte ", at_,
                        " of ", bytes_.size(), " (the ranks must run one build of one program)");
        if (n == 0) return;  // memcpy must not see the null data() of an empty vector
        std::memcpy(p, bytes_.data() + at_, n);
        at_ += n;
    }
    [[nodiscard]] bool done() const { return at_ == bytes_.size(); }
    [[nodiscard]] std::size_t remaining() const { return bytes_.size() - at_; }

private:
    std::span<const std::byte> bytes_;
    std::size_t at_ = 0;
};

/// Types that travel as their object representation (an optional only when its value does).
template <class T>
struct travels_raw_trait
    : std::bool_constant<std::is_trivially_copyable_v<T> && !boost::hana::Struct<T>::value> {};
template <class T>
struct travels_raw_trait<std::optional<T>>
    : std::bool_constant<std::is_trivially_copyable_v<std::optional<T>> && travels_raw_trait<T>::value> {};
template <class T>
inline constexpr bool travels_raw = travels_raw_trait<T>::value;

/// The customisation point; the library provides the cases below.
template <class T, class = void>
struct Codec;

/// A type whose values can cross ranks.
template <class T>
concept Encodable = requires(ByteWriter& w, ByteReader& r, const T& in, T& out) {
    Codec<T>::encode(w, in);
    Codec<T>::decode(r, out);
};

template <class T>
void encode(ByteWriter& w, const T& v) {
    static_assert(Encodable<T>, "fabric: this type cannot cross MPI ranks: make it trivially copyable, define or "
                                "adapt it for Boost.Hana (BOOST_HANA_DEFINE_STRUCT / BOOST_HANA_ADAPT_STRUCT), or "
                                "specialise fabric::dist::Codec for it");
    Codec<T>::encode(w, v);
}
template <class T>
void decode(ByteReader& r, T& v) {
    Codec<T>::decode(r, v);
}

template <class T>
struct Codec<T, std::enable_if_t<travels_raw<T>>> {
    static void encode(ByteWriter& w, const T& v) { w.raw(&v, sizeof v); }
    static void decode(ByteReader& r, T& v) { r.raw(&v, sizeof v); }
};

template <class T>
struct Codec<T, std::enable_if_t<boost::hana::Struct<T>::value>> {
    static void encode(ByteWriter& w, const T& v) {
        boost::hana::for_each(boost::hana::accessors<T>(),
                              [&](auto field) { dist::encode(w, boost::hana::second(field)(v)); });
    }
    static void decode(ByteReader& r, T& v) {
        boost::hana::for_each(boost::hana::accessors<T>(),
                              [&](auto field) { dist::decode(r, boost::hana::second(field)(v)); });
    }
};

template <class T>
struct Codec<std::vector<T>> {
    static void encode(ByteWriter& w, const std::vector<T>& v) {
        dist::encode(w, static_cast<std::uint64_t>(v.size()));
        if constexpr (travels_raw<T>) w.raw(v.data(), v.size() * sizeof(T));
        else for (const T& x : v) dist::encode(w, x);
    }
    static void decode(ByteReader& r, std::vector<T>& v) {
        std::uint64_t n = 0;
        dist::decode(r, n);
        if constexpr (travels_raw<T>)
            detail::require(n <= r.remaining() / sizeof(T), "a result's vector says ", n, " elements, more than its "
                            "bytes hold (the ranks must run one build of one program)");
        v.assign(n, T{});
        if constexpr (travels_raw<T>) r.raw(v.data(), v.size() * sizeof(T));
        else for (T& x : v) dist::decode(r, x);
    }
};

template <>
struct Codec<std::string> {
    static void encode(ByteWriter& w, const std::string& s) {
        dist::encode(w, static_cast<std::uint64_t>(s.size()));
        w.raw(s.data(), s.size());
    }
    static void decode(ByteReader& r, std::string& s) {
        std::uint64_t n = 0;
        dist::decode(r, n);
        detail::require(n <= r.remaining(), "a result's string says ", n, " characters, more than its bytes hold");
        s.assign(n, '\0');
        r.raw(s.data(), n);
    }
};

template <class T>
struct Codec<std::optional<T>, std::enable_if_t<!travels_raw<std::optional<T>>>> {
    static void encode(ByteWriter& w, const std::optional<T>& v) {
        dist::encode(w, static_cast<std::uint8_t>(v.has_value()));
        if (v) dist::encode(w, *v);
    }
    static void decode(ByteReader& r, std::optional<T>& v) {
        std::uint8_t has = 0;
        dist::decode(r, has);
        v.reset();
        if (has) dist::decode(r, v.emplace());
    }
};

}  // namespace fabric::dist
