// A quantity measured over several runs (seeds): its mean and the half-width of
// its 95% confidence interval, from Student's t distribution with n - 1 degrees
// of freedom (the runs are independent; their values are taken as normal).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <span>

namespace fabric::experiment {

struct Estimate {
    double mean = 0;
    double half_width = 0;  // 95% confidence: mean +- half_width; 0 with a single sample (no interval: interval())
    std::size_t samples = 0;

    /// The 95% half-width, or none: one sample has no interval (its spread is unknown, not 0).
    [[nodiscard]] std::optional<double> interval() const {
        return samples >= 2 ? std::optional<double>(half_width) : std::nullopt;
    }

    /// Student's t at 0.975 for `df` degrees of freedom: the table to 30, then
    /// 1.96 + 2.4 / df (within 0.002 of the exact value past 30).
    [[nodiscard]] static constexpr double t975(std::size_t df) {
        constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
        return df == 0 ? 0.0 : df <= 30 ? table[df - 1] : 1.96 + 2.4 / static_cast<double>(df);
    }

    [[nodiscard]] static Estimate of(std::span<const double> values) {
        Estimate e;
        e.samples = values.size();
        if (values.empty()) return e;
        for (const double v : values) e.mean += v;
        e.mean /= static_cast<double>(values.size());
        if (values.size() < 2) return e;
        double squares = 0;
        for (const double v : values) squares += (v - e.mean) * (v - e.mean);
        const double sd = std::sqrt(squares / static_cast<double>(values.size() - 1));
        e.half_width = t975(values.size() - 1) * sd / std::sqrt(static_cast<double>(values.size()));
        return e;
    }
};

}  // namespace fabric::experiment
