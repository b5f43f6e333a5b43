// The benchmark's flat input (bench/kernel_choice/inputs.py) as the kernel's own types: a
// board's arrays as a tk::Env, a position's row as a tk::Walk, and the distance of
// tk::approach (native/kernel/solo.hpp, included as it is).
#pragma once

#include <cstdint>

#include "solo.hpp"

namespace flat {

constexpr int MAXC = 15, MAXR = 32, MAXP = 16, MAXCELLS = 64, MAXX = 16;
constexpr int H_WIDTH = 0, H_HEIGHT = 1, H_SIZE = 2, H_WRAP = 3, H_PROTECTOR = 4, H_NROCKS = 5;
constexpr int ROCKS = 16, PORTALS = ROCKS + MAXR, NBR = PORTALS + MAXP;
constexpr int NEXITS = NBR + 4 * MAXCELLS, EXITS = NEXITS + MAXCELLS;
constexpr int NINTS = EXITS + MAXCELLS * MAXX;
constexpr int M_FULL = 0, M_STATIC = 1, M_VILLAGE = 2, M_PORTAL = 3, NMASKS = 12;
constexpr int DRAGON = 2 + MAXC + 3 * MAXC, HITS = 1 + 2 * DRAGON, ROW = HITS + MAXR;

// The board of ``masks`` and ``ints``; false if they are not one.
inline bool make_env(const uint64_t* masks, const int32_t* ints, tk::Env& env) {
    env.width = ints[H_WIDTH];
    env.height = ints[H_HEIGHT];
    env.size = ints[H_SIZE];
    int nrocks = ints[H_NROCKS];
    if (env.size != env.width * env.height || env.size < 1 || env.size > MAXCELLS || nrocks < 0 ||
        nrocks > MAXR)
        return false;
    env.wrap = ints[H_WRAP] != 0;
    env.protector = ints[H_PROTECTOR];
    env.full = masks[M_FULL];
    env.static_mask = masks[M_STATIC];
    env.village_mask = masks[M_VILLAGE];
    env.portal_mask = masks[M_PORTAL];
    env.nrocks = nrocks;
    for (int r = 0; r < nrocks; ++r) env.rock_cell[r] = (int8_t)ints[ROCKS + r];
    for (int c = 0; c < env.size; ++c) {
        for (int d = 0; d < 4; ++d) env.nbr[c][d] = (int8_t)ints[NBR + 4 * c + d];
        int n = ints[NEXITS + c];
        if (n < 0 || n > MAXX) return false;
        env.exits[c].clear();
        for (int k = 0; k < n; ++k) env.exits[c].push_back((int8_t)ints[EXITS + MAXX * c + k]);
    }
    env.make_shifts();
    return true;
}

// The approach distance asked by one row (inputs.py's layout; the rows are trusted).
inline int approach_row(const tk::Env& env, const int32_t* row) {
    tk::Walk w;
    for (int c = 0; c < 2; ++c) {
        const int32_t* at = row + 1 + c * DRAGON;
        tk::Dragon& d = w.d[c];
        d.len = (uint8_t)at[0];
        d.nlinks = (uint8_t)at[1];
        for (int k = 0; k < d.len; ++k) d.cells[k] = (int8_t)at[2 + k];
        for (int k = 0; k < d.nlinks; ++k) {
            const int32_t* link = at + 2 + MAXC + 3 * k;
            d.links[k] = {(int8_t)link[0], (int8_t)link[1], (int8_t)link[2]};
        }
    }
    for (int r = 0; r < env.nrocks; ++r) w.hits[r] = (uint8_t)row[HITS + r];
    return tk::approach(env, w, row[0]);
}

}  // namespace flat
