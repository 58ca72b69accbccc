// ChosenSwitch<Tag, As...>: a switch allocator picked at run time among the types
// As... (a tool's option, a study's loop over allocators) as one SwitchAllocator
// type, so that a program compiles one simulator per fabric rather than one per
// fabric and allocator. Its stage holds the chosen allocator's stage in a
// std::variant and forwards every call to it (std::visit: a jump on the variant's
// index, no virtual call), so a run decides what a run with that allocator decides;
// it is ChosenAtRunTime (concepts/allocator.hpp), so the cycle kernel runs it on the
// stage-list kernel as the allocator chosen where that kernel is compiled for it
// (Tag::staged, a std::tuple of some of As...; or Tag::staged_for, a template of the
// fabric type giving such a tuple per fabric; all of them if Tag has neither).
//   struct Mine : ChosenSwitch<Mine, SeparableSwitch, Wavefront> {
//       static constexpr std::string_view name = "mine";
//   };
//   Mine::chosen() = 1;   // every stage reset from now on is a Wavefront's
#pragma once

#include <cstddef>
#include <cstdint>
#include <tuple>
#include <utility>
#include <variant>

#include <fabric/concepts/allocator.hpp>

namespace fabric {

template <class Tag, class... As>
struct ChosenSwitch {
    static_assert(sizeof...(As) > 0 && (SwitchAllocator<As> && ...),
                  "fabric: ChosenSwitch<Tag, As...> chooses among switch allocators (each with a name and a stage, "
                  "concept SwitchAllocator): give one or more");
    using alternatives = std::tuple<As...>;

    /// The index in As... of the allocator every stage reset from now on uses (one per Tag).
    static std::size_t& chosen() {
        static std::size_t index = 0;
        return index;
    }

    class stage {
    public:
        void reset(std::size_t routers, std::uint32_t ports, std::uint32_t vcs) {
            [&]<std::size_t... I>(std::index_sequence<I...>) {
                ((chosen() == I ? void(any_.template emplace<I>()) : void()), ...);
            }(std::index_sequence_for<As...>{});
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
        std::variant<typename As::stage...> any_;
    };
};

}  // namespace fabric
