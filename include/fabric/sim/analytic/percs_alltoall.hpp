// The effective all-to-all bandwidth model of the PERCS interconnect paper
// (Arimilli et al., section VII.A), as closed forms.
//
// Each hub has d D links to d distinct supernodes; shortest-path (direct) routes
// use at most one D link and no two L links in a row. e(P) counts the compute
// nodes one hub reaches through path shape P; c(L) counts the paths crossing one
// link of class L; a link of bandwidth B then gives each path B / c(L), and a
// node's all-to-all bandwidth is the number of destinations times the smallest
// such share.
#pragma once

#include <algorithm>
#include <cstdint>

namespace fabric::analytic {

struct PercsAlltoall {
    double ll_bandwidth = 24.0;  // GB/s; the interconnect paper's figure for this model
    double lr_bandwidth = 5.0;
    double d_bandwidth = 10.0;
    double w_bandwidth = 24.0;  // each of the 4 W links from the hub to a POWER7 chip

    // Path counts e(P) for a hub with d D links.
    static constexpr double e_ll(double) { return 7; }
    static constexpr double e_lr(double) { return 24; }
    static constexpr double e_d(double d) { return d; }
    static constexpr double e_ll_d(double d) { return 7 * d; }   // = e(D-LL)
    static constexpr double e_lr_d(double d) { return 24 * d; }  // = e(D-LR)
    static constexpr double e_ll_d_ll(double d) { return 49 * d; }
    static constexpr double e_ll_d_lr(double d) { return 168 * d; }  // = e(LR-D-LL)
    static constexpr double e_lr_d_lr(double d) { return 576 * d; }

    /// Destinations of one hub: 31 + 1024 d.
    static constexpr double destinations(double d) {
        return e_ll(d) + e_lr(d) + e_d(d) + 2 * e_ll_d(d) + 2 * e_lr_d(d) + e_ll_d_ll(d) + 2 * e_ll_d_lr(d) +
               e_lr_d_lr(d);
    }

    /// Paths through one LL link: 1 + 64 d.
    static constexpr double c_ll(double d) {
        return (e_ll(d) + 2 * e_ll_d(d) + 2 * e_ll_d_ll(d) + 2 * e_ll_d_lr(d)) / 7;
    }
    /// Paths through one LR link: 1 + 64 d.
    static constexpr double c_lr(double d) {
        return (e_lr(d) + 2 * e_lr_d(d) + 2 * e_ll_d_lr(d) + 2 * e_lr_d_lr(d)) / 24;
    }
    /// Paths through one D link: 1024.
    static constexpr double c_d(double d) {
        return (e_d(d) + 2 * e_ll_d(d) + 2 * e_lr_d(d) + e_ll_d_ll(d) + 2 * e_ll_d_lr(d) + e_lr_d_lr(d)) / d;
    }

    /// Effective bandwidth per path on each class, GB/s.
    [[nodiscard]] constexpr double b_ll(double d) const { return ll_bandwidth / c_ll(d); }
    [[nodiscard]] constexpr double b_lr(double d) const { return lr_bandwidth / c_lr(d); }
    [[nodiscard]] constexpr double b_d(double d) const { return d_bandwidth / c_d(d); }

    /// All-to-all bandwidth per compute node with direct routing: destinations
    /// times the smallest per-path share; (155 + 5120 d) / (1 + 64 d) for d >= 8.
    [[nodiscard]] constexpr double direct_bandwidth(double d) const {
        return destinations(d) * std::min({b_ll(d), b_lr(d), b_d(d)});
    }

    /// A compute node's injection (and ejection) bandwidth: its 4 W links, 4 x 24 =
    /// 96 GB/s. The bound above stays below it for every d ("close to the
    /// injection bandwidth", the paper says of d >= 8), so the W links never limit
    /// the all-to-all.
    [[nodiscard]] constexpr double injection_bandwidth() const { return 4 * w_bandwidth; }

    /// The class that limits: 0 LL, 1 LR, 2 D (ties to the later class).
    [[nodiscard]] constexpr int bottleneck(double d) const {
        const double ll = b_ll(d), lr = b_lr(d), dd = b_d(d);
        if (dd <= lr && dd <= ll) return 2;
        return lr <= ll ? 1 : 0;
    }
};

}  // namespace fabric::analytic
