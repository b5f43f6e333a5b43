// The rules of a solo Grasshopper turn on a compact position: the same functions as the
// Python engine (taolong_lab/engine/core.py, solo.py), which stays the reference.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

namespace tk {

constexpr int MAXC = 15;   // cells a dragon may have
constexpr int MAXR = 32;   // breakable rocks on a board
constexpr int RING = 8;    // spaces of the Ba Gua
constexpr int MAXS = 32;   // stones in the Ba Gua
constexpr int MAXCELLS = 64;
constexpr int NONE = -1;

enum Move { FORWARD = 0, SIDEWAYS = 1, STAY_ON_AXIS = 2, STEP_AND_EFFECT = 3 };
enum Effect { NO_EFFECT = 0, ABSORB = 1, EXPEL = 2 };
enum Cost { NO_COST = 0, FIRE_COST = 1, WATER_COST = 2 };
enum Lookahead { LOOK_NONE = 0, LOOK_MATTER = 1, LOOK_NEXT_TURN = 2 };

struct Link {
    int8_t i, exit, entry;
};

struct Dragon {
    uint8_t len = 0, water = 0, fire = 0, nlinks = 0;
    int8_t cells[MAXC] = {};
    Link links[MAXC] = {};
    bool alive() const { return len > 1; }
    int head() const { return cells[0]; }
    int tail() const { return cells[len - 1]; }
};

inline bool same(const Dragon& a, const Dragon& b) {
    if (a.len != b.len || a.water != b.water || a.fire != b.fire || a.nlinks != b.nlinks)
        return false;
    if (std::memcmp(a.cells, b.cells, a.len)) return false;
    for (int k = 0; k < a.nlinks; ++k) {
        const Link &x = a.links[k], &y = b.links[k];
        if (x.i != y.i || x.exit != y.exit || x.entry != y.entry) return false;
    }
    return true;
}

// The board part of a position (the engine's "walk"): both dragons, the centre's stones and
// the hits left in each breakable rock of the start (0: destroyed).
struct Walk {
    Dragon d[2];
    int8_t water = 0, fire = 0;
    uint8_t hits[MAXR] = {};
};

struct Bagua {
    uint8_t len[RING] = {};
    uint32_t stones[RING] = {};  // bit j: the j-th stone from the base is black
};

inline bool same_bagua(const Bagua& a, const Bagua& b) {
    for (int s = 0; s < RING; ++s)
        if (a.len[s] != b.len[s] || a.stones[s] != b.stones[s]) return false;
    return true;
}

struct RulerEntry {
    int8_t cell, value;
    uint8_t blocked_by;  // bit k: entry k must be free
};

struct Shift {
    int by;
    uint64_t moving, wrapping;
    int far;
};

// Everything fixed by the rules, the layout and the challenge.
struct Env {
    int width = 0, height = 0, size = 0;
    bool wrap = false;
    int8_t nbr[MAXCELLS][4];
    uint64_t full = 0, static_mask = 0, portal_mask = 0, village_mask = 0, beside_village = 0;
    int protector = NONE;
    int cap = 4;
    bool tail_first = false, bite_on_stay = true;
    int lookahead = LOOK_MATTER;
    int8_t portal_cost[MAXCELLS];
    std::vector<int8_t> exits[MAXCELLS];  // for a portal cell: where it leads, sorted
    int nruler = 0;
    RulerEntry ruler[MAXCELLS * 4][8];
    int move[RING], axis[RING];
    bool is_fire[RING], is_water[RING];
    int nrocks = 0;
    int8_t rock_cell[MAXR];
    Shift shifts[4];
    // the bounds' constants (solvers/bounds.py)
    int per_turn = 1, rmax = 0, water_bonus = 0;
    bool tramples = false, portal_damage = false;
    int player = 0;

    uint64_t bit(int c) const { return 1ULL << c; }
    void make_shifts();
    uint64_t shift(uint64_t cells, int d) const {
        const Shift& s = shifts[d];
        uint64_t moved = cells & s.moving;
        uint64_t out = s.by > 0 ? moved << s.by : moved >> -s.by;
        if (s.wrapping && (cells & s.wrapping)) {
            uint64_t back = cells & s.wrapping;
            out |= s.far > 0 ? back << s.far : back >> -s.far;
        }
        return out;
    }
};

inline void Env::make_shifts() {
    int w = width, h = height;
    uint64_t first_col = 0, first_row = (w >= 64) ? ~0ULL : ((1ULL << w) - 1);
    for (int y = 0; y < h; ++y) first_col |= 1ULL << (y * w);
    uint64_t last_col = first_col << (w - 1);
    uint64_t last_row = first_row << (w * (h - 1));
    shifts[0] = {-w, full & ~first_row, wrap ? first_row : 0, w * (h - 1)};
    shifts[1] = {1, full & ~last_col, wrap ? last_col : 0, -(w - 1)};
    shifts[2] = {w, full & ~last_row, wrap ? last_row : 0, -w * (h - 1)};
    shifts[3] = {-1, full & ~first_col, wrap ? first_col : 0, w - 1};
}

inline int facing(const Env& env, const Dragon& d) {
    int from = (d.nlinks && d.links[0].i == 0) ? d.links[0].exit : d.cells[1];
    for (int k = 0; k < 4; ++k)
        if (env.nbr[from][k] == d.cells[0]) return k;
    return 0;
}

inline int life(const Env& env, const Walk& w, int colour) {
    const Dragon& d = w.d[colour];
    return d.len > 1 ? (d.len - 2) * env.cap + d.water : 0;
}

inline bool alive(const Walk& w) { return w.d[0].alive() && w.d[1].alive(); }

inline bool same_walk(const Env& env, const Walk& a, const Walk& b) {
    if (a.water != b.water || a.fire != b.fire) return false;
    if (env.nrocks && std::memcmp(a.hits, b.hits, env.nrocks)) return false;
    return same(a.d[0], b.d[0]) && same(a.d[1], b.d[1]);
}

inline uint64_t tiles(const Env& env, const Dragon& d) {
    uint64_t m = 0;
    for (int k = 0; k < d.len; ++k) m |= env.bit(d.cells[k]);
    for (int k = 0; k < d.nlinks; ++k) m |= env.bit(d.links[k].exit) | env.bit(d.links[k].entry);
    return m;
}

inline uint64_t occupancy(const Env& env, const Walk& w) {
    return tiles(env, w.d[0]) | tiles(env, w.d[1]) | env.static_mask;
}

inline uint64_t targets(const Env& env, const Walk& w, int colour) {
    uint64_t m = tiles(env, w.d[colour]);
    return colour == env.protector ? m | env.village_mask : m;
}

inline uint64_t rock_mask(const Env& env, const Walk& w) {
    uint64_t m = 0;
    for (int r = 0; r < env.nrocks; ++r)
        if (w.hits[r]) m |= env.bit(env.rock_cell[r]);
    return m;
}

inline int rock_hits_left(const Env& env, const Walk& w) {
    int n = 0;
    for (int r = 0; r < env.nrocks; ++r) n += w.hits[r];
    return n;
}

// engine.core.damage: one water stone at a time; an empty meter costs the tail segment.
inline void hurt(const Env& env, Walk& w, int colour, int amount) {
    Dragon& d = w.d[colour];
    int len0 = d.len, water = d.water, centre = w.water;
    for (int k = 0; k < amount; ++k) {
        --water;
        ++centre;
        if (water == 0) {
            --d.len;
            if (d.len == 1) break;
            water = env.cap;
            centre -= env.cap;
        }
    }
    d.water = (uint8_t)water;
    w.water = (int8_t)centre;
    if (d.nlinks && d.len < len0) {
        int n = 0;
        for (int k = 0; k < d.nlinks; ++k)
            if (d.links[k].i < d.len - 1) d.links[n++] = d.links[k];
        d.nlinks = (uint8_t)n;
    }
}

// A body moved one cell: the new head in front, the tail dropped, the portal links shifted.
inline void advance(Dragon& d, int target) {
    int n = 0;
    Link kept[MAXC];
    for (int k = 0; k < d.nlinks; ++k)
        if (d.links[k].i + 2 < d.len) kept[n++] = {(int8_t)(d.links[k].i + 1), d.links[k].exit, d.links[k].entry};
    std::memmove(d.cells + 1, d.cells, d.len - 1);
    d.cells[0] = (int8_t)target;
    d.nlinks = (uint8_t)n;
    std::memcpy(d.links, kept, sizeof(Link) * n);
}

struct Step {
    Walk walk;
    int facing;
};

inline bool spare_tail(const Env& env, const Dragon& d, int cell) {
    return env.tail_first && cell == d.tail() && d.len > 2;
}

// engine.core._portal_steps
inline void portal_steps(const Env& env, const Walk& w, int colour, int entry, uint64_t occ,
                         std::vector<Step>& out) {
    const Dragon& me = w.d[colour];
    int cost = env.portal_cost[entry];
    if (cost == FIRE_COST && me.fire < 1) return;
    uint64_t blocked = occ | env.portal_mask | rock_mask(env, w);
    for (int exit : env.exits[entry]) {
        if (occ >> exit & 1) continue;
        for (int d = 0; d < 4; ++d) {
            int cell = env.nbr[exit][d];
            if (cell < 0) continue;
            if ((blocked >> cell & 1) && !spare_tail(env, me, cell)) continue;
            Step s{w, d};
            Dragon& m = s.walk.d[colour];
            advance(m, cell);
            std::memmove(m.links + 1, m.links, sizeof(Link) * m.nlinks);
            m.links[0] = {0, (int8_t)exit, (int8_t)entry};
            ++m.nlinks;
            if (cost == FIRE_COST) {
                --m.fire;
                ++s.walk.fire;
            }
            if (cost == WATER_COST) hurt(env, s.walk, colour, 1);
            out.push_back(s);
        }
    }
}

// engine.core.steps: every way the dragon of ``colour`` takes one step towards ``d``.
inline void steps(const Env& env, const Walk& w, int colour, int d, std::vector<Step>& out) {
    const Dragon& me = w.d[colour];
    int target = env.nbr[me.head()][d];
    if (target < 0) return;
    uint64_t occ = occupancy(env, w);
    if ((env.portal_mask >> target & 1) && !(occ >> target & 1)) {
        portal_steps(env, w, colour, target, occ, out);
        return;
    }
    if ((occ >> target & 1) && !spare_tail(env, me, target)) return;
    Step s{w, d};
    advance(s.walk.d[colour], target);
    for (int r = 0; r < env.nrocks; ++r) {
        if (w.hits[r] && env.rock_cell[r] == target) {  // trampled: destroyed, its hits taken
            int hits = s.walk.hits[r];
            s.walk.hits[r] = 0;
            hurt(env, s.walk, colour, hits);
            break;
        }
    }
    out.push_back(s);
}

// A legal Matter execution: the head's path, the facing after it, the effect, and the walk
// after the steps (before the bite, absorb or expel).
struct Plan {
    int8_t path[2];
    uint8_t npath;
    uint8_t effect;
    int8_t facing;
    Walk moved;
};

inline void add_plans(const Step& s, int npath, const int8_t* path, bool effects,
                      std::vector<Plan>& out) {
    Plan p;
    p.npath = (uint8_t)npath;
    p.path[0] = npath > 0 ? path[0] : 0;
    p.path[1] = npath > 1 ? path[1] : 0;
    p.facing = (int8_t)s.facing;
    p.moved = s.walk;
    if (!effects) {
        p.effect = NO_EFFECT;
        out.push_back(p);
        return;
    }
    p.effect = ABSORB;
    out.push_back(p);
    p.effect = EXPEL;
    out.push_back(p);
}

// engine.core.plans (by steps, which agrees with its light tables where they apply).
inline void plans(const Env& env, const Walk& w, int colour, int element, std::vector<Plan>& out) {
    out.clear();
    const Dragon& me = w.d[colour];
    int f = facing(env, me);
    int mv = env.move[element], ax = env.axis[element];
    std::vector<Step> first, second;
    first.reserve(8);
    if (mv == FORWARD) {
        if ((f & 1) != ax) return;
        steps(env, w, colour, f, first);
        for (const Step& s1 : first) {
            int8_t path[2] = {s1.walk.d[colour].cells[0], 0};
            add_plans(s1, 1, path, false, out);
            if (!s1.walk.d[colour].alive()) continue;
            second.clear();
            steps(env, s1.walk, colour, s1.facing, second);
            for (const Step& s2 : second) {
                path[1] = s2.walk.d[colour].cells[0];
                add_plans(s2, 2, path, false, out);
            }
        }
        return;
    }
    if (mv == STAY_ON_AXIS && (f & 1) == ax) {
        add_plans(Step{w, f}, 0, nullptr, false, out);
        return;
    }
    int dirs[4], nd = 0;
    if (mv == SIDEWAYS) {
        if ((f & 1) != ax) return;
        int a = (f + 1) % 4, b = (f + 3) % 4;
        dirs[0] = a < b ? a : b;
        dirs[1] = a < b ? b : a;
        nd = 2;
    } else {
        for (int d = 0; d < 4; ++d) dirs[d] = d;
        nd = 4;
    }
    bool effects = mv == STEP_AND_EFFECT;
    for (int k = 0; k < nd; ++k) {
        first.clear();
        steps(env, w, colour, dirs[k], first);
        for (const Step& s1 : first) {
            int8_t path[2] = {s1.walk.d[colour].cells[0], 0};
            add_plans(s1, 1, path, effects, out);
        }
    }
}

inline void hit_rock_at(const Env& env, Walk& w, int cell, int amount) {
    for (int r = 0; r < env.nrocks; ++r)
        if (w.hits[r] && env.rock_cell[r] == cell) {
            int left = w.hits[r] - amount;
            w.hits[r] = (uint8_t)(left > 0 ? left : 0);
        }
}

// engine.core.ruler_hit: the best ruler value reaching ``target``, -1 for a miss.
inline int ruler_hit(const Env& env, int head, int f, uint64_t occ, uint64_t target) {
    int best = -1;
    const RulerEntry* entries = env.ruler[head * 4 + f];
    for (int k = 0; k < env.nruler; ++k) {
        const RulerEntry& e = entries[k];
        if (e.cell < 0 || !(target >> e.cell & 1) || e.value <= best) continue;
        bool blocked = false;
        for (int b = 0; b < env.nruler && !blocked; ++b)
            if (e.blocked_by >> b & 1) {
                int c = entries[b].cell;
                blocked = c < 0 || (occ >> c & 1);
            }
        if (!blocked) best = e.value;
    }
    return best;
}

inline void expel(const Env& env, Walk& w, int colour, bool fire_element, int f, uint64_t prey) {
    Dragon& me = w.d[colour];
    int head = me.head();
    uint64_t occ = occupancy(env, w) | env.portal_mask | rock_mask(env, w);
    int best = ruler_hit(env, head, f, occ, prey);
    int bonus = fire_element ? me.fire : w.water;
    int hit = best >= 0 ? best + bonus : 0;
    if (hit) hurt(env, w, 1 - colour, hit);
    if (env.nrocks) {  // every reached ruler cell hits a rock there by its value
        const RulerEntry* entries = env.ruler[head * 4 + f];
        for (int k = 0; k < env.nruler; ++k) {
            const RulerEntry& e = entries[k];
            if (e.cell < 0) continue;
            bool blocked = false;
            for (int b = 0; b < env.nruler && !blocked; ++b)
                if (e.blocked_by >> b & 1) {
                    int c = entries[b].cell;
                    blocked = c < 0 || (occ >> c & 1);
                }
            if (!blocked && e.value) hit_rock_at(env, w, e.cell, e.value);
        }
    }
    if (fire_element) {
        Dragon& attacker = w.d[colour];
        w.fire = (int8_t)(w.fire + attacker.fire);
        attacker.fire = 0;
    }
}

// engine.core.carry_out: the walk after ``plan``; ``prey`` is the opponent's targets before.
inline Walk carry_out(const Env& env, int colour, int element, const Plan& plan, uint64_t prey) {
    Walk w = plan.moved;
    Dragon& me = w.d[colour];
    if (!me.alive()) return w;
    if (plan.effect == NO_EFFECT) {
        bool moved = plan.npath > 0;
        if (!moved && !env.bite_on_stay) return w;
        int front = env.nbr[me.head()][plan.facing];
        if (front < 0) return w;
        if (prey >> front & 1)
            hurt(env, w, 1 - colour, 1);
        else
            hit_rock_at(env, w, front, 1);
        return w;
    }
    if (plan.effect == ABSORB) {
        if (env.is_fire[element]) {
            if (me.fire < env.cap && w.fire > 0) {
                ++me.fire;
                --w.fire;
            }
        } else if (me.water < env.cap && w.water > 0) {
            ++me.water;
            --w.water;
        }
        return w;
    }
    expel(env, w, colour, env.is_fire[element], plan.facing, prey);
    return w;
}

// engine.core.most_damage: the most life the opponent of ``colour`` loses from its Matter
// phase of ``element``.
inline int most_damage(const Env& env, const Walk& w, int colour, int element, std::vector<Plan>& buf) {
    plans(env, w, colour, element, buf);
    if (buf.empty()) return 0;
    uint64_t prey = targets(env, w, 1 - colour);
    int have = life(env, w, 1 - colour), best = 0;
    for (const Plan& p : buf) {
        int lost = have - life(env, carry_out(env, colour, element, p, prey), 1 - colour);
        if (lost > best) best = lost;
    }
    return best;
}

inline void village_damage(const Env& env, Walk& w, int colour) {
    if (env.protector == NONE || colour == env.protector || !alive(w)) return;
    if (tiles(env, w.d[colour]) & env.beside_village) hurt(env, w, colour, 1);
}

// engine.core.sow, counterclockwise from the base stone: the last space reached, the stacks
// after, and the spaces the opponent's stones landed on (its group, in drop order).
inline int sow(const Bagua& b, int space, int opp_black, Bagua& out, int* group, int& ngroup) {
    out = b;
    int n = b.len[space];
    uint32_t stack = b.stones[space];
    out.len[space] = 0;
    out.stones[space] = 0;
    int i = space;
    ngroup = 0;
    for (int j = 0; j < n; ++j) {
        i = (i + 1) % RING;
        int black = stack >> j & 1;
        out.stones[i] |= (uint32_t)black << out.len[i];
        ++out.len[i];
        if (black == opp_black) group[ngroup++] = i;
    }
    return i;
}

}  // namespace tk
