// The solo opponent (engine/solo.py): its group, its three priorities, and a whole solo turn.
#pragma once

#include <algorithm>
#include <string>
#include <unordered_map>

#include "rules.hpp"

namespace tk {

constexpr int UNREACHABLE = 1000000;

// engine.solo._approach: the fewest steps that leave ``colour``'s head adjacently facing the
// other dragon, every other tile fixed; a breadth-first search a layer at a time on masks.
inline int approach(const Env& env, const Walk& w, int colour) {
    if (!alive(w)) return 0;
    const Dragon& me = w.d[colour];
    uint64_t prey = targets(env, w, 1 - colour);
    uint64_t blocked = occupancy(env, w) | rock_mask(env, w);
    uint64_t free_ = ~blocked & env.full;
    uint64_t goal[4], layer[4] = {0, 0, 0, 0}, seen[4];
    for (int d = 0; d < 4; ++d) goal[d] = env.shift(prey, (d + 2) % 4);
    layer[facing(env, me)] = env.bit(me.head());
    for (int d = 0; d < 4; ++d) seen[d] = layer[d];
    int limit = 4 * env.size;
    for (int dist = 0; dist < limit; ++dist) {
        if ((layer[0] & goal[0]) || (layer[1] & goal[1]) || (layer[2] & goal[2]) || (layer[3] & goal[3]))
            return dist;
        uint64_t n = layer[0], e = layer[1], s = layer[2], wv = layer[3];
        uint64_t reached[4] = {
            env.shift(n | e | wv, 0) & free_,
            env.shift(e | n | s, 1) & free_,
            env.shift(s | e | wv, 2) & free_,
            env.shift(wv | n | s, 3) & free_,
        };
        if (env.portal_mask) {
            uint64_t around = blocked | env.portal_mask;
            for (int d = 0; d < 4; ++d) {
                uint64_t entered = reached[d] & env.portal_mask;
                reached[d] ^= entered;
                while (entered) {
                    int entry = __builtin_ctzll(entered);
                    entered &= entered - 1;
                    for (int exit : env.exits[entry]) {
                        if (blocked >> exit & 1) continue;
                        for (int k = 0; k < 4; ++k) {
                            int cell = env.nbr[exit][k];
                            if (cell >= 0 && !(around >> cell & 1)) reached[k] |= env.bit(cell);
                        }
                    }
                }
            }
        }
        bool any = false;
        for (int d = 0; d < 4; ++d) {
            layer[d] = reached[d] & ~seen[d];
            any = any || layer[d];
        }
        if (!any) return UNREACHABLE;
        for (int d = 0; d < 4; ++d) seen[d] |= layer[d];
    }
    return UNREACHABLE;
}

// engine.solo.group_executions: every combined execution of ``group`` by ``colour``,
// merged by the walk they end in (the first kept), in the engine's order.
inline void group_executions(const Env& env, const Walk& w, int colour, const int* group, int ngroup,
                             std::vector<Walk>& results, std::vector<Plan>& buf) {
    results.clear();
    results.push_back(w);
    std::vector<Walk> following;
    for (int g = 0; g < ngroup; ++g) {
        int element = group[g];
        following.clear();
        auto add = [&](const Walk& x) {
            for (const Walk& y : following)
                if (same_walk(env, x, y)) return;
            following.push_back(x);
        };
        for (const Walk& r : results) {
            if (!alive(r)) {
                add(r);
                continue;
            }
            plans(env, r, colour, element, buf);
            if (buf.empty()) {
                add(r);
                continue;
            }
            uint64_t prey = targets(env, r, 1 - colour);
            for (const Plan& p : buf) add(carry_out(env, colour, element, p, prey));
        }
        results.swap(following);
    }
}

struct Option {
    int space, element;
    int kind;  // 0 EXEC, 1 PENALTY, 2 ENDED
    int plan;  // index into the turn's plans
    int walk;  // index into the turn's walks (after the group)
};

enum Kind { EXEC = 0, PENALTY = 1, ENDED = 2 };

// One solo turn's options, as engine.solo.solo_options lists them.
struct Turn {
    std::vector<Option> options;
    std::vector<Walk> walks;  // after the group
    std::vector<std::vector<Plan>> plans;  // per walk: the player's plans
    std::vector<Bagua> baguas;  // per space sown
    int bagua_of[RING];
};

// A position of the search: the board, the Ba Gua and the flux coin (the mover is fixed).
struct Position {
    Walk walk;
    Bagua bagua;
    uint8_t coin = 0;
};

inline bool same_position(const Env& env, const Position& a, const Position& b) {
    return a.coin == b.coin && same_bagua(a.bagua, b.bagua) && same_walk(env, a.walk, b.walk);
}

// What the next-turn lookahead asks again and again, emptied when full.
struct Caches {
    std::unordered_map<std::string, int> next_low;
    void clear_if_full() {
        if (next_low.size() > (1u << 18)) next_low.clear();
    }
};

class Solo {
  public:
    explicit Solo(const Env& env) : env(env) {}

    // engine.solo.solo_options (Grasshopper): with ``keep``, the sowings it rejects are left out.
    template <class Keep>
    void options(const Walk& w, const Bagua& b, int player, int lookahead, Keep keep, Turn& t);
    void options(const Walk& w, const Bagua& b, int player, int lookahead, Turn& t) {
        options(w, b, player, lookahead, [](int, int) { return true; }, t);
    }
    // The position after option ``o`` of turn ``t`` (engine State._child).
    Walk end_of(const Turn& t, const Option& o, int player) const;

    const Env& env;

  private:
    std::vector<Walk> choose(const Walk& w, int opp, const int* group, int ngroup, int pending,
                             const Bagua& after, int lookahead);
    int potential(const Walk& start, const Walk& w, int opp, int pending, const Bagua& after,
                  int lookahead);
    int next_turn_low(Walk w, const Bagua& b, int player);
    Caches cache_;
    std::string cache_key(const Walk& w, const Bagua& b) const;
};

inline std::string Solo::cache_key(const Walk& w, const Bagua& b) const {
    std::string k;
    k.reserve(96);
    for (int c = 0; c < 2; ++c) {
        const Dragon& d = w.d[c];
        k.push_back((char)d.len);
        k.push_back((char)d.water);
        k.push_back((char)d.fire);
        k.push_back((char)d.nlinks);
        k.append((const char*)d.cells, d.len);
        for (int i = 0; i < d.nlinks; ++i) {
            k.push_back(d.links[i].i);
            k.push_back(d.links[i].exit);
            k.push_back(d.links[i].entry);
        }
    }
    k.push_back(w.water);
    k.push_back(w.fire);
    k.append((const char*)w.hits, env.nrocks);
    for (int s = 0; s < RING; ++s) {
        k.push_back((char)b.len[s]);
        k.append((const char*)&b.stones[s], 4);
    }
    return k;
}

// engine.solo.potential_damage: priority 2.
inline int Solo::potential(const Walk& start, const Walk& w, int opp, int pending, const Bagua& after,
                           int lookahead) {
    int player = 1 - opp;
    bool pending_phase = alive(w) && pending >= 0;
    if (lookahead != LOOK_NEXT_TURN) {
        int lowest = life(env, w, opp);
        if (pending_phase) {
            std::vector<Plan> buf;
            lowest -= most_damage(env, w, player, pending, buf);
        }
        return life(env, start, opp) - lowest;
    }
    std::vector<Walk> ends;
    if (pending_phase) {
        std::vector<Plan> buf;
        plans(env, w, player, pending, buf);
        uint64_t prey = targets(env, w, opp);
        for (const Plan& p : buf) ends.push_back(carry_out(env, player, pending, p, prey));
        if (ends.empty()) {
            Walk x = w;
            hurt(env, x, player, 1);
            ends.push_back(x);
        }
    } else {
        ends.push_back(w);
    }
    int lowest = 1 << 30;
    for (const Walk& e : ends) lowest = std::min(lowest, next_turn_low(e, after, player));
    return life(env, start, opp) - lowest;
}

// engine.solo._next_turn_low: the opponent's lowest life after the player's next turn.
inline int Solo::next_turn_low(Walk w, const Bagua& b, int player) {
    village_damage(env, w, player);
    if (!alive(w)) return life(env, w, 1 - player);
    std::string key = cache_key(w, b);
    auto it = cache_.next_low.find(key);
    if (it != cache_.next_low.end()) return it->second;
    Turn t;
    options(w, b, player, LOOK_NONE, t);
    int lowest = 1 << 30;
    for (const Option& o : t.options) {
        const Walk& ow = t.walks[o.walk];
        int have = life(env, ow, 1 - player), dealt = 0;
        if (o.kind == EXEC) {
            uint64_t prey = targets(env, ow, 1 - player);
            Walk done = carry_out(env, player, o.element, t.plans[o.walk][o.plan], prey);
            dealt = have - life(env, done, 1 - player);
        }
        lowest = std::min(lowest, have - dealt);
    }
    cache_.clear_if_full();
    cache_.next_low.emplace(std::move(key), lowest);
    return lowest;
}

// engine.solo._choose: the group's executions still tied after priorities 1-3.
inline std::vector<Walk> Solo::choose(const Walk& w, int opp, const int* group, int ngroup, int pending,
                                      const Bagua& after, int lookahead) {
    std::vector<Walk> found;
    std::vector<Plan> buf;
    group_executions(env, w, opp, group, ngroup, found, buf);
    int player = 1 - opp;
    auto keep_best = [&](auto score, bool highest) {
        std::vector<int> s(found.size());
        int best = 0;
        for (size_t i = 0; i < found.size(); ++i) {
            s[i] = score(found[i]);
            if (i == 0 || (highest ? s[i] > best : s[i] < best)) best = s[i];
        }
        std::vector<Walk> kept;
        for (size_t i = 0; i < found.size(); ++i)
            if (s[i] == best) kept.push_back(found[i]);
        found.swap(kept);
    };
    if (found.size() > 1) {
        int before = life(env, w, player);
        keep_best([&](const Walk& x) { return before - life(env, x, player); }, true);
    }
    if (found.size() > 1 && lookahead != LOOK_NONE)
        keep_best([&](const Walk& x) { return potential(w, x, opp, pending, after, lookahead); }, false);
    if (found.size() > 1)
        keep_best([&](const Walk& x) { return approach(env, x, opp); }, false);
    return found;
}

template <class Keep>
void Solo::options(const Walk& w, const Bagua& b, int player, int lookahead, Keep keep, Turn& t) {
    t.options.clear();
    t.walks.clear();
    t.plans.clear();
    t.baguas.clear();
    int opp = 1 - player;
    int opp_black = opp;  // white stones are 0 bits, black 1
    bool any_possible = false;
    struct Raw {
        int space, element, walk;
        bool ended;
    };
    std::vector<Raw> raw;
    for (int space = 0; space < RING; ++space) {
        t.bagua_of[space] = -1;
        if (!b.len[space]) continue;
        Bagua after;
        int group[MAXS], ngroup = 0;
        int element = sow(b, space, opp_black, after, group, ngroup);
        if (!keep(element, ngroup)) continue;
        t.bagua_of[space] = (int)t.baguas.size();
        t.baguas.push_back(after);
        std::vector<Walk> chosen;
        if (ngroup)
            chosen = choose(w, opp, group, ngroup, element, after, lookahead);
        else
            chosen.push_back(w);
        for (const Walk& w2 : chosen) {
            int idx = (int)t.walks.size();
            t.walks.push_back(w2);
            t.plans.emplace_back();
            if (!alive(w2)) {
                raw.push_back({space, element, idx, true});
                any_possible = true;
                continue;
            }
            plans(env, w2, player, element, t.plans.back());
            any_possible = any_possible || !t.plans.back().empty();
            raw.push_back({space, element, idx, false});
        }
    }
    for (const Raw& r : raw) {
        if (r.ended)
            t.options.push_back({r.space, r.element, ENDED, 0, r.walk});
        else if (!any_possible)
            t.options.push_back({r.space, r.element, PENALTY, 0, r.walk});
        else
            for (int k = 0; k < (int)t.plans[r.walk].size(); ++k)
                t.options.push_back({r.space, r.element, EXEC, k, r.walk});
    }
}

inline Walk Solo::end_of(const Turn& t, const Option& o, int player) const {
    const Walk& w = t.walks[o.walk];
    Walk out = w;
    if (o.kind == EXEC)
        out = carry_out(env, player, o.element, t.plans[o.walk][o.plan], targets(env, w, 1 - player));
    else if (o.kind == PENALTY)
        hurt(env, out, player, 1);
    village_damage(env, out, player);
    return out;
}

}  // namespace tk
