// The solvers' bounds (taolong_lab/solvers/bounds.py) on kernel positions.
#pragma once

#include "solo.hpp"

namespace tk {

constexpr int INF = 1 << 30;

class Bounds {
  public:
    Bounds(const Env& env, Solo& solo) : env(env), solo(solo) {}

    // 0: the player has won; INF: the player has lost; else the admissible bound.
    int lower(const Walk& w) const {
        int won = winner(w);
        if (won >= 0) return won == env.player ? 0 : INF;
        int need = life(env, w, 1 - env.player) - (env.tramples ? rock_hits_left(env, w) : 0);
        int turns = need > 0 ? (need + env.per_turn - 1) / env.per_turn : 0;
        return turns > 1 ? turns : 1;
    }

    // State.outcome(): the first defeated dragon, white first, loses.
    static int winner(const Walk& w) {
        if (w.d[0].alive() && w.d[1].alive()) return -1;
        return w.d[0].alive() ? 0 : 1;
    }

    bool may_win_within(const Position& p, int turns) {
        int won = winner(p.walk);
        if (won >= 0) return won == env.player;
        if (turns > SHARP_TURNS) return lower(p.walk) <= turns;
        int need = life(env, p.walk, 1 - env.player);
        if (env.tramples) need -= rock_hits_left(env, p.walk);
        if (need <= 0) return true;
        return most(p.bagua, p.walk.d[env.player].fire, turns) >= need;
    }

    bool may_win_now(const Position& p);

    static constexpr int SHARP_TURNS = 3;
    const Env& env;

  private:
    Solo& solo;
    std::unordered_map<uint64_t, int> most_cache_;
    std::vector<Plan> buf_;

    // solvers.bounds.turn_damage_bound
    int turn_damage(int element, int fire, int group, int& after) const {
        int hit;
        after = fire;
        if (env.is_fire[element]) {
            hit = env.rmax + fire;
            after = std::min(env.cap, fire + 1);
        } else if (env.is_water[element]) {
            hit = env.rmax + env.water_bonus;
        } else {
            hit = 1;
        }
        return env.portal_damage ? hit + 2 * group : hit;
    }

    // solvers.bounds._most_damage: the most damage any ``turns`` sowings can deal.
    int most(const Bagua& b, int fire, int turns) {
        if (turns == 0) return 0;
        uint64_t key = (uint64_t)turns << 4 | (uint64_t)fire;  // the stacks, the meter, the turns
        int at = 8;
        for (int s = 0; s < RING; ++s) {
            key |= (uint64_t)b.len[s] << at;
            key |= (uint64_t)b.stones[s] << (at + 4);
            at += 4 + b.len[s];
        }
        auto it = most_cache_.find(key);
        if (it != most_cache_.end()) return it->second;
        int best = 0;
        for (int space = 0; space < RING; ++space) {
            if (!b.len[space]) continue;
            Bagua after;
            int group[MAXS], ngroup = 0, fire_after = fire;
            int element = sow(b, space, 1 - env.player, after, group, ngroup);
            int hit = turn_damage(element, fire, ngroup, fire_after);
            best = std::max(best, hit + most(after, fire_after, turns - 1));
        }
        if (most_cache_.size() > (1u << 18)) most_cache_.clear();
        most_cache_.emplace(key, best);
        return best;
    }
};

// solvers.bounds.may_win_now: only the sowings that could deal the damage left are played out,
// with the opponent's real policy.
inline bool Bounds::may_win_now(const Position& p) {
    if (!may_win_within(p, 1)) return false;
    if (winner(p.walk) >= 0) return true;
    int player = env.player, other = 1 - player;
    int need = life(env, p.walk, other);
    int rocks[MAXR], nrocks = 0;
    if (env.tramples) {
        for (int r = 0; r < env.nrocks; ++r)
            if (p.walk.hits[r]) rocks[nrocks++] = p.walk.hits[r];
        std::sort(rocks, rocks + nrocks, [](int a, int b) { return a > b; });
    }
    int fire = p.walk.d[player].fire;
    auto keep = [&](int element, int group) {
        int after;
        int hit = turn_damage(element, fire, group, after);
        for (int k = 0; k < 2 * group && k < nrocks; ++k) hit += rocks[k];
        return hit >= need;
    };
    Turn t;
    solo.options(p.walk, p.bagua, player, env.lookahead, keep, t);
    for (const Option& o : t.options) {
        const Walk& w = t.walks[o.walk];
        int have = life(env, w, other);
        if (have == 0) return true;
        if (o.kind == EXEC && most_damage(env, w, player, o.element, buf_) >= have) return true;
    }
    return false;
}

}  // namespace tk
