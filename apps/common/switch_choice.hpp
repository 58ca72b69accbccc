// The switch allocator a tool's user names at run time, as one SwitchAllocator
// type: its stage holds the chosen allocator's stage in a std::variant and
// forwards every call to it (std::visit: a jump on the variant's index, no
// virtual call). A tool then compiles one simulator per fabric, not one per
// fabric and allocator; the library's own users pick the allocator as a type.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include <fabric/core/error.hpp>
#include <fabric/sim/cycle/switch_allocators.hpp>

namespace fabric_apps {

struct NamedSwitch {
    static constexpr std::string_view name = "named at run time";
    /// The words the tool accepts, in the variant's order.
    static constexpr const char* words[] = {"separable", "islip", "output-first", "wavefront"};

    /// The allocator every stage built from now on uses (set once, from the options).
    static std::size_t& chosen() {
        static std::size_t index = 0;
        return index;
    }
    static void choose(const std::string& word) {
        for (std::size_t i = 0; i < std::size(words); ++i)
            if (word == words[i]) {
                chosen() = i;
                return;
            }
        throw fabric::config_error(fabric::detail::message("allocator: separable, islip, output-first or "
                                                           "wavefront; got '", word, "'"));
    }

    class stage {
        using Any = std::variant<fabric::SeparableSwitch::stage, fabric::Islip<1>::stage,
                                 fabric::SeparableOutputFirst::stage, fabric::Wavefront::stage>;

    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            switch (chosen()) {
                case 1: any_.template emplace<1>(); break;
                case 2: any_.template emplace<2>(); break;
                case 3: any_.template emplace<3>(); break;
                default: any_.template emplace<0>(); break;
            }
            std::visit([&](auto& s) { s.reset(routers, ports, vcs); }, any_);
        }
        void begin(std::uint32_t router) {
            std::visit([&](auto& s) { s.begin(router); }, any_);
        }
        void request(std::uint32_t in, std::uint32_t vc, std::uint32_t out) {
            std::visit([&](auto& s) { s.request(in, vc, out); }, any_);
        }
        [[nodiscard]] bool any() const {
            return std::visit([](const auto& s) { return s.any(); }, any_);
        }
        template <class Grant>
        void allocate(Grant&& grant) {
            std::visit([&](auto& s) { s.allocate(grant); }, any_);
        }

    private:
        Any any_;
    };
};

static_assert(fabric::SwitchAllocator<NamedSwitch>);

}  // namespace fabric_apps
