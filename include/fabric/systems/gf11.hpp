// GF11 (Kumar): 566 processors and 10 disks on a 576-port three-stage Benes
// network of 24 x 24 crossbars, driven synchronously by precomputed settings.
// The run-time environment keeps a list of working processors, maps the
// application's logical processors onto them, and computes the settings of each
// logical pattern for the physical processors, so faulty processors (and the
// processors of faulty first- or last-stage crossbars) are never used; faulty
// middle crossbars are left out of the routing.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include <fabric/core/error.hpp>
#include <fabric/flow/synchronous.hpp>
#include <fabric/routing/benes_looping.hpp>
#include <fabric/topology/benes.hpp>

namespace fabric {

class Gf11 {
public:
    static constexpr std::size_t radix = 24;            // 24 x 24 crossbars, 24 per stage
    static constexpr std::size_t processors_built = 566;  // the rest of the 576 ports serve the disks

    /// `faulty_processors`: ports of processors that do not work; `faulty_switches`:
    /// crossbars as stage * 24 + index (stage 0 input, 1 middle, 2 output);
    /// `processors`: ports 0 .. processors - 1 hold processors (566 on GF11).
    explicit Gf11(std::vector<std::uint32_t> faulty_processors = {}, std::vector<std::uint32_t> faulty_switches = {},
                  Synchronous timing = {}, std::size_t processors = processors_built)
        : net_(radix), timing_(timing) {
        timing_.validate();
        detail::require(processors <= net_.ports(), "GF11 has ", net_.ports(), " ports; asked for ", processors,
                        " processors");
        std::vector<std::uint8_t> bad(net_.ports(), 0);
        for (std::size_t p = processors; p < net_.ports(); ++p) bad[p] = 1;  // disk ports
        for (const auto p : faulty_processors) {
            detail::require(p < processors, "GF11 processor ", p, " does not exist; valid: 0 to ", processors - 1);
            bad[p] = 1;
        }
        for (const auto s : faulty_switches) {
            detail::require(s < 3 * radix, "GF11 crossbar ", s, " does not exist; valid: 0 to ", 3 * radix - 1);
            const auto stage = static_cast<std::uint32_t>(s / radix), index = static_cast<std::uint32_t>(s % radix);
            if (stage == 1) {
                faulty_middle_.push_back(index);
            } else {  // a first- or last-stage crossbar takes its 24 processors with it
                for (std::size_t q = 0; q < radix; ++q) bad[index * radix + q] = 1;
            }
        }
        for (std::size_t p = 0; p < processors; ++p)
            if (!bad[p]) working_.push_back(static_cast<std::uint32_t>(p));
        // With f middle crossbars out, an outer crossbar may use at most 24 - f ports.
        const std::size_t per_switch = radix - faulty_middle_.size();
        std::vector<std::size_t> used(radix, 0);
        std::vector<std::uint32_t> kept;
        for (const auto p : working_)
            if (used[p / radix] < per_switch) {
                ++used[p / radix];
                kept.push_back(p);
            }
        working_ = std::move(kept);
    }

    [[nodiscard]] const ClosNetwork& network() const { return net_; }
    [[nodiscard]] const Synchronous& timing() const { return timing_; }
    /// Physical processors the run-time environment may use, in order.
    [[nodiscard]] const std::vector<std::uint32_t>& working() const { return working_; }

    /// The setting that realises `logical` (logical processor l sends to logical[l])
    /// on the first logical.size() working processors.
    [[nodiscard]] ClosNetwork::Setting configure(std::span<const std::uint32_t> logical) const {
        detail::require(logical.size() <= working_.size(), "the application asks for ", logical.size(),
                        " processors; ", working_.size(), " work");
        (void)detail::inverse_permutation(logical, logical.size());
        std::vector<std::uint32_t> physical(net_.ports(), unconnected);
        for (std::size_t l = 0; l < logical.size(); ++l) physical[working_[l]] = working_[logical[l]];
        return route(net_, physical, faulty_middle_);
    }

    /// Sends word values[l] from every logical processor l through `setting`;
    /// returns what each logical processor receives.
    [[nodiscard]] std::vector<std::uint32_t> transfer(const ClosNetwork::Setting& setting,
                                                      std::span<const std::uint32_t> values) const {
        std::vector<std::uint32_t> in(net_.ports(), unconnected);
        for (std::size_t l = 0; l < values.size(); ++l) in[working_[l]] = values[l];
        const auto out = net_.carry(setting, in);
        std::vector<std::uint32_t> received(values.size());
        for (std::size_t l = 0; l < values.size(); ++l) received[l] = out[working_[l]];
        return received;
    }

private:
    ClosNetwork net_;
    Synchronous timing_;
    std::vector<std::uint32_t> working_;
    std::vector<std::uint32_t> faulty_middle_;
};

}  // namespace fabric
