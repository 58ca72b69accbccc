// The router step of the cycle kernel (Routers<A>, routers.hpp): which routers
// are stepped in a cycle, and a step's VC and switch allocation over the router's
// live front flits, with the pass over the router skipped when it has one live VC.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <limits>

#include <fabric/sim/cycle/routers.hpp>

namespace fabric::cycle {

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::step_all(std::uint64_t now, Kernel& k) {
    std::size_t keep = 0;
    for (std::size_t i = 0; i < active_.size(); ++i) {
        const std::uint32_t n = active_[i];
        Activity& a = activity_[n];
        if (a.wake > now) {  // not stepped: only a step takes a front or queued flit away
            active_[keep++] = n;
            continue;
        }
        const std::uint64_t* const masks = in_.masks(n);  // found once for the step and after it
        a.wake = step(n, masks, now, k);
        if ((out_enabled_ && out_.node_flits(n)) || in_.any_front_in(masks)) active_[keep++] = n;
        else a.active = false;
    }
    active_.resize(keep);
}

template <SwitchAllocator A>
template <class Kernel>
std::uint64_t Routers<A>::step(std::uint32_t n, const std::uint64_t* masks, std::uint64_t now, Kernel& k) {
    if (lone_steps_) {  // many steps find one live VC: its stages need no arbitration
        const std::uint64_t live = InputBuffers::live_of_one_word(masks);  // lone steps: one mask word
        if (live != 0 && (live & (live - 1)) == 0) {
            const auto local = static_cast<std::uint32_t>(std::countr_zero(live));
            InputVc& v = in_.router(n)[local];
            if (v.state == VcState::waiting_vc && v.ready <= now && !any_vc_) {  // step_lone's common case
                const std::size_t ov = std::size_t{n} * per_router_ + v.out_port * V_ + v.out_vc;
                const bool eject = v.out_port >= P_;
                if (eject ? !eject_vcs_.on() : vc_.owner(ov) == none) {
                    if (!eject) vc_.grant(std::size_t{n} * per_router_ + local, ov);
                    v.state = VcState::active;
                    return v.ready = granted_ready(n, local, now + pipeline_.vc_allocation, k);
                }
            }
            return step_lone(n, local, v, now, k);
        }
    }
    return step_all_vcs(n, now, k);
}

template <SwitchAllocator A>
template <class Kernel>
std::uint64_t Routers<A>::step_lone(std::uint32_t n, std::uint32_t local, InputVc& v, std::uint64_t now, Kernel& k) {
    if (v.ready > now) return v.state == VcState::idle ? never : v.ready;
    if (v.state == VcState::waiting_vc) {
        if (v.out_port < P_) {
            if (any_vc_) {
                if (!pick_vc(n, local, v, k)) {
                    in_.block(n, local);  // a holder's tail frees a VC of its class at this router
                    return never;
                }
            } else {
                std::uint32_t& owner = vc_.owner(std::size_t{n} * per_router_ + v.out_port * V_ + v.out_vc);
                if (owner != none && !(owner == tail_pending && tail_credit_back(n, v.out_port, v.out_vc, k))) {
                    in_.block(n, local);  // the holder's tail frees the VC at this router
                    return never;
                }
                owner = none;
            }
            vc_.grant(std::size_t{n} * per_router_ + local,
                      std::size_t{n} * per_router_ + v.out_port * V_ + v.out_vc);
            picked(n, local, v);
        } else if (eject_vcs_.on()) {
            if (const std::uint64_t retry = take_ejection(n, v, now)) {
                if (retry == EjectionVcs::held) {
                    in_.block(n, local);  // the holder's tail, leaving this router, sets when it is free
                    return never;
                }
                return v.ready = retry;
            }
        }
        v.state = VcState::active;
        v.ready = granted_ready(n, local, now + pipeline_.vc_allocation, k);
        return v.ready;
    }
    if (v.state != VcState::active) return never;
    if (v.out_port < P_ && k.failures().any() && k.failures().broken(std::size_t{n} * P_ + v.out_port)) {
        drop(n, local, now, k);  // its link is gone: dropped, reported
        return now + 1;
    }
    if (const std::uint64_t free = port_free_[std::size_t{n} * NP_ + v.out_port]; free > now + exit_delay_)
        return free - exit_delay_;
    if (!output_ready(n, local, v, k)) {
        in_.block(n, local);  // feedback or room in its output queue unblocks it
        return never;
    }
    switch_.alone(n, port_of_[local], vc_of_[local], v.out_port);
    transfer(n, local, now, k, false);
    return now + 1;
}

template <SwitchAllocator A>
template <class Kernel>
std::uint64_t Routers<A>::step_all_vcs(std::uint32_t n, std::uint64_t now, Kernel& k) {
    std::uint64_t wake = never;
    if (out_enabled_ && out_.node_flits(n)) {
        auto later = [&wake](std::uint64_t t) { wake = t < wake ? t : wake; };
        if (now >= out_.wake(n)) link_stage(n, now, later, k);
        else later(out_.wake(n));
    }
    // One pass over the live front VCs, in index order, collects both the
    // VC-allocation requests and the switch requests. A head granted its VC
    // this step may bid for the switch only from grant + vc_allocation, so
    // with a VA delay of 0 the VCs just granted make theirs after it.
    InputVc* const vcs = in_.router(n);
    const std::size_t vbase = std::size_t{n} * per_router_;
    const std::uint64_t* const port_free = port_free_.data() + std::size_t{n} * NP_;
    std::uint32_t n_va = 0, n_sw = 0, granted = 0;
    const std::uint32_t words = in_.words();
    for (std::uint32_t w = 0; w < words; ++w) {
        for (std::uint64_t bits = in_.live(n, w); bits; bits &= bits - 1) {
            const std::uint32_t local = w * 64 + static_cast<std::uint32_t>(std::countr_zero(bits));
            InputVc& v = vcs[local];
            if (v.ready > now) {
                if (v.state != VcState::idle && v.ready < wake) wake = v.ready;
                continue;
            }
            if (v.state == VcState::active) {
                if (v.out_port < P_ && k.failures().any() && k.failures().broken(std::size_t{n} * P_ + v.out_port)) {
                    drop(n, local, now, k);  // its link is gone: dropped, reported
                    if (now + 1 < wake) wake = now + 1;
                    continue;
                }
                if (const std::uint64_t free = port_free[v.out_port]; free > now + exit_delay_) {
                    if (free - exit_delay_ < wake) wake = free - exit_delay_;
                    continue;
                }
                if (!output_ready(n, local, v, k)) {
                    in_.block(n, local);  // feedback or room in its output queue unblocks it
                    continue;
                }
                sw_local_[n_sw++] = local;
            } else if (v.state == VcState::waiting_vc) {
                if (v.out_port >= P_) {  // ejection: no virtual channel to hold, but under wait_for_tail_credit
                    if (eject_vcs_.on())
                        if (const std::uint64_t retry = take_ejection(n, v, now)) {
                            if (retry == EjectionVcs::held) in_.block(n, local);
                            else if ((v.ready = retry) < wake) wake = retry;
                            continue;
                        }
                    v.state = VcState::active;
                    v.ready = granted_ready(n, local, now + pipeline_.vc_allocation, k);
                    if (v.ready < wake) wake = v.ready;
                    just_granted_[granted++] = local;
                    continue;
                }
                if (any_vc_) [[unlikely]] {
                    if (pick_vc(n, local, v, k)) {
                        va_out_[n_va] = vbase + v.out_port * V_ + v.out_vc;
                        va_local_[n_va++] = local;
                    } else {
                        in_.block(n, local);  // a holder's tail frees a VC of its class at this router
                    }
                    continue;
                }
                const std::size_t ov = vbase + v.out_port * V_ + v.out_vc;
                std::uint32_t& owner = vc_.owner(ov);
                if (owner == none || (owner == tail_pending && tail_credit_back(n, v.out_port, v.out_vc, k))) {
                    owner = none;
                    va_out_[n_va] = ov;
                    va_local_[n_va++] = local;
                } else {
                    in_.block(n, local);  // the holder's tail frees the VC at this router
                }
            }
        }
    }
    if (n_va == 1) {  // alone: it wins, and its output VC's pointer moves past it
        const std::uint32_t local = va_local_[0];
        InputVc& v = vcs[local];
        vc_.grant(vbase + local, va_out_[0]);
        picked(n, local, v);
        v.state = VcState::active;
        v.ready = granted_ready(n, local, now + pipeline_.vc_allocation, k);
        if (v.ready < wake) wake = v.ready;
        just_granted_[granted++] = local;
    } else if (n_va > 1) {
        granted = allocate_vcs(n, now, n_va, granted, wake, k);
    }
    if (n_sw == 0 && granted == 0) return wake;
    if (pipeline_.vc_allocation == 0)  // only the VCs granted now: the others have made their request
        for (std::uint32_t i = 0; i < granted; ++i) {
            const std::uint32_t local = just_granted_[i];
            InputVc& v = vcs[local];
            if (v.ready > now) {  // a source VC whose terminal link has not brought its flit yet
                if (v.ready < wake) wake = v.ready;
            } else if (v.out_port < P_ && k.failures().any() &&
                       k.failures().broken(std::size_t{n} * P_ + v.out_port)) {
                drop(n, local, now, k);
                if (now + 1 < wake) wake = now + 1;
            } else if (const std::uint64_t free = port_free[v.out_port]; free > now + exit_delay_) {
                if (free - exit_delay_ < wake) wake = free - exit_delay_;
            } else if (!output_ready(n, local, v, k)) {
                in_.block(n, local);
            } else {
                sw_local_[n_sw++] = local;
            }
        }
    const bool speculate = speculative_ && pipeline_.vc_allocation > 0 && granted > 0;
    if (n_sw == 0 && !speculate) return wake;
    // A transfer changes what follows it (next flits, freed VCs), and a loser
    // of the switch bids again: look again next cycle.
    if (now + 1 < wake) wake = now + 1;
    const bool prioritised = switch_.prioritised();
    if (n_sw == 1 && !speculate && !prioritised) {
        const std::uint32_t local = sw_local_[0];
        switch_.alone(n, port_of_[local], vc_of_[local], vcs[local].out_port);
        transfer(n, local, now, k, false);
        return wake;
    }
    allocate_switch(n, now, n_sw, granted, speculate, k);
    return wake;
}

template <SwitchAllocator A>
template <class Kernel>
void Routers<A>::allocate_switch(std::uint32_t n, std::uint64_t now, std::uint32_t n_sw,
                                       std::uint32_t granted, bool speculate, Kernel& k) {
    InputVc* const vcs = in_.router(n);
    const bool prioritised = switch_.prioritised();
    // n and now by value: the grant, out of line, reads them from its closure, not through it.
    auto grant = [this, n, now, &k](std::uint32_t port, std::uint32_t vc, std::uint32_t) {
        transfer(n, port * V_ + vc, now, k, false);
    };
    if (!prioritised && !speculate &&
        switch_.allocate_all(
            n, n_sw,
            [&](std::uint32_t i) {
                const std::uint32_t local = sw_local_[i];
                return SwitchRequest{port_of_[local], vc_of_[local], vcs[local].out_port};
            },
            grant))
        return;
    switch_.begin(n);
    if (prioritised) {
        for (std::uint32_t i = 0; i < n_sw; ++i) {
            const std::uint32_t local = sw_local_[i];
            switch_.request(port_of_[local], vc_of_[local], vcs[local].out_port, level_of(vcs[local], k, true));
        }
    } else {
        for (std::uint32_t i = 0; i < n_sw; ++i) {
            const std::uint32_t local = sw_local_[i];
            switch_.request_unranked(port_of_[local], vc_of_[local], vcs[local].out_port);
        }
    }
    if (speculate) {
        // BookSim's speculative switch allocation: the heads granted their VC now
        // bid at once, below every non-speculative request; those that lose bid
        // again once their VC allocation delay is over.
        switch_.begin_speculative();
        const std::uint64_t* const port_free = port_free_.data() + std::size_t{n} * NP_;
        for (std::uint32_t i = 0; i < granted; ++i) {
            const std::uint32_t local = just_granted_[i];
            const InputVc& v = vcs[local];
            if (v.out_port < P_ && k.failures().any() && k.failures().broken(std::size_t{n} * P_ + v.out_port))
                continue;  // dropped when it bids normally
            if (granted_ready(n, local, now, k) > now) continue;  // its terminal link has not brought the flit
            if (port_free[v.out_port] > now + exit_delay_) continue;
            if (output_ready(n, local, v, k)) switch_.request_speculative(port_of_[local], vc_of_[local], v.out_port);
        }
    }
    if (!switch_.any(speculate)) return;
    switch_.allocate(speculate, grant);
}

template <SwitchAllocator A>
template <class Kernel>
std::uint32_t Routers<A>::allocate_vcs(std::uint32_t n, std::uint64_t now, std::uint32_t n_va,
                                             std::uint32_t granted, std::uint64_t& wake, Kernel& k) {
    const std::size_t vbase = std::size_t{n} * per_router_;
    const std::uint64_t ready = now + pipeline_.vc_allocation;
    const bool prioritised = switch_.prioritised();
    auto grant = [&](std::size_t best) {
        InputVc& g = in_[best];
        const auto local = static_cast<std::uint32_t>(best - vbase);
        picked(n, local, g);
        g.state = VcState::active;
        g.ready = granted_ready(n, local, ready, k);
        if (g.ready < wake) wake = g.ready;
        just_granted_[granted++] = local;
    };
    auto lost = [&] {
        if (now + 1 < wake) wake = now + 1;
    };
    if (!prioritised) {
        vc_.allocate_lists(n_va, va_local_.data(), va_out_.data(), vbase, grant, lost);
        return granted;
    }
    vc_.begin();
    for (std::uint32_t i = 0; i < n_va; ++i)
        vc_.request(vbase + va_local_[i], va_out_[i], level_of(in_.router(n)[va_local_[i]], k, true));
    vc_.allocate(prioritised, grant, lost);
    return granted;
}

/// A head bound for its terminal (input VC `v` of router n) takes a VC of the ejection
/// port (eject_vcs_ on): 0, or when to ask again (EjectionVcs::held: blocked until a tail
/// leaving this router sets it).
template <SwitchAllocator A>
std::uint64_t Routers<A>::take_ejection(std::uint32_t n, InputVc& v, std::uint64_t now) {
    std::uint64_t retry = 0;
    const std::uint32_t vc = eject_vcs_.take(terminal_link(n, v.out_port), now, retry);
    if (vc == EjectionVcs::none_free) return retry;
    v.out_vc = static_cast<std::uint8_t>(vc);
    return 0;
}

/// The first VC of the class of route VC `vc`; refused where the routes name more
/// classes than the policy's vcs_required (a graph's layers).
template <SwitchAllocator A>
std::uint8_t Routers<A>::class_first(std::uint32_t vc) const {
    detail::require(vc < V_ / group_, "vc_choice = any: a route names VC ", vc, " where the routing policy's "
                    "vcs_required is ", V_ / group_, ", so its VCs do not name classes: use vc_choice = route");
    return static_cast<std::uint8_t>(vc * group_);
}

/// Of its class's VCs on its port, the free one nearest at or after the input VC's pointer
/// (one held until its last tail's credit came back, and that credit back, is freed).
template <SwitchAllocator A>
template <class Kernel>
bool Routers<A>::pick_vc(std::uint32_t n, std::uint32_t local, InputVc& v, Kernel& k) {
    const std::size_t base = std::size_t{n} * per_router_ + std::size_t{v.out_port} * V_;
    const std::uint32_t first = v.out_vc / group_ * group_, pointer = pointer_[std::size_t{n} * per_router_ + local];
    std::uint32_t best = none, nearest = none;
    for (std::uint32_t vc = first; vc < first + group_; ++vc) {
        const std::uint32_t owner = vc_.owner(base + vc);
        if (owner != none && !(owner == tail_pending && tail_credit_back(n, v.out_port, vc, k))) continue;
        // pointers run over the router's output VCs
        const auto distance = static_cast<std::uint32_t>(ring_distance(pointer, v.out_port * V_ + vc, per_router_));
        if (distance < nearest) best = vc, nearest = distance;
    }
    if (best == none) return false;
    vc_.owner(base + best) = none;
    v.out_vc = static_cast<std::uint8_t>(best);
    return true;
}

}  // namespace fabric::cycle
