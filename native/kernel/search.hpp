// The explicit solver's searches (taolong_lab/solvers/explicit.py) on packed positions: A* by
// turns with deferral, and the bounded depth-first search that counts the optimal first turns.
// Both take positions and successors in the engine's order, so they expand the same positions.
#pragma once

#include <chrono>
#include <deque>
#include <memory>
#include <stdexcept>

#include "bounds.hpp"

namespace tk {

// Positions packed into a few bytes, a fixed stride per challenge.
class Packer {
  public:
    Packer() = default;
    Packer(const Env& env, int maxlen0, int maxlen1, int nportals) : env_(&env) {
        maxlen_[0] = maxlen0;
        maxlen_[1] = maxlen1;
        links_ = nportals ? 1 : 0;
        stride = 1 + 4 + 2 + 1;
        for (int c = 0; c < 2; ++c) stride += 2 + maxlen_[c] + (links_ ? 2 * (maxlen_[c] - 1) : 0);
        stride += (env.nrocks + 3) / 4;
        for (int c = 0; c < MAXCELLS; ++c) portal_index_[c] = -1;
        int k = 0;
        for (int c = 0; c < env.size; ++c)
            if (env.portal_mask >> c & 1) {
                portal_index_[c] = (int8_t)k;
                portal_cell_[k++] = (int8_t)c;
            }
    }
    int stride = 0;

    void pack(const Position& p, uint8_t* out) const {
        std::memset(out, 0, stride);
        uint8_t* o = out;
        *o++ = p.coin;
        for (int s = 0; s < RING; s += 2) *o++ = (uint8_t)(p.bagua.len[s] | p.bagua.len[s + 1] << 4);
        uint32_t bits = 0;
        int at = 0;
        for (int s = 0; s < RING; ++s) {
            bits |= p.bagua.stones[s] << at;
            at += p.bagua.len[s];
        }
        *o++ = (uint8_t)bits;
        *o++ = (uint8_t)(bits >> 8);
        *o++ = (uint8_t)(p.walk.water | p.walk.fire << 4);
        for (int c = 0; c < 2; ++c) {
            const Dragon& d = p.walk.d[c];
            *o++ = (uint8_t)(d.len | d.nlinks << 4);
            *o++ = (uint8_t)(d.water | d.fire << 4);
            for (int k = 0; k < maxlen_[c]; ++k) *o++ = k < d.len ? (uint8_t)d.cells[k] : 0xFF;
            if (links_)
                for (int k = 0; k < maxlen_[c] - 1; ++k) {
                    if (k < d.nlinks) {
                        *o++ = (uint8_t)d.links[k].i;
                        *o++ = (uint8_t)(portal_index_[d.links[k].exit] | portal_index_[d.links[k].entry] << 4);
                    } else {
                        o += 2;
                    }
                }
        }
        for (int r = 0; r < env_->nrocks; ++r) o[r / 4] |= (uint8_t)(p.walk.hits[r] << (2 * (r % 4)));
    }

    void unpack(const uint8_t* in, Position& p) const {
        const uint8_t* o = in;
        p.coin = *o++;
        for (int s = 0; s < RING; s += 2) {
            p.bagua.len[s] = *o & 15;
            p.bagua.len[s + 1] = *o++ >> 4;
        }
        uint32_t bits = o[0] | (uint32_t)o[1] << 8;
        o += 2;
        for (int s = 0; s < RING; ++s) {
            p.bagua.stones[s] = bits & ((1u << p.bagua.len[s]) - 1);
            bits >>= p.bagua.len[s];
        }
        p.walk.water = (int8_t)(*o & 15);
        p.walk.fire = (int8_t)(*o++ >> 4);
        for (int c = 0; c < 2; ++c) {
            Dragon& d = p.walk.d[c];
            d.len = *o & 15;
            d.nlinks = *o++ >> 4;
            d.water = *o & 15;
            d.fire = *o++ >> 4;
            for (int k = 0; k < maxlen_[c]; ++k, ++o)
                if (k < d.len) d.cells[k] = (int8_t)*o;
            if (links_)
                for (int k = 0; k < maxlen_[c] - 1; ++k, o += 2)
                    if (k < d.nlinks) d.links[k] = {(int8_t)o[0], portal_cell_[o[1] & 15], portal_cell_[o[1] >> 4]};
        }
        for (int r = 0; r < env_->nrocks; ++r) p.walk.hits[r] = (o[r / 4] >> (2 * (r % 4))) & 3;
    }

  private:
    const Env* env_ = nullptr;
    int maxlen_[2] = {0, 0};
    int links_ = 0;
    int8_t portal_index_[MAXCELLS];
    int8_t portal_cell_[16];
};

inline uint64_t hash_bytes(const uint8_t* p, int n) {
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ (uint64_t)n;
    int k = 0;
    for (; k + 8 <= n; k += 8) {
        uint64_t v;
        std::memcpy(&v, p + k, 8);
        h = (h ^ v) * 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 31;
    }
    uint64_t v = 0;
    std::memcpy(&v, p + k, n - k);
    h = (h ^ v) * 0x94D049BB133111EBULL;
    return h ^ (h >> 29);
}

// Items in blocks of a fixed size: growing never copies them nor holds twice their room.
template <class T>
class Blocks {
  public:
    explicit Blocks(size_t width = 1) : width_(width) {}
    size_t size() const { return n_; }
    T* at(size_t i) { return blocks_[i >> BITS].get() + (i & MASK) * width_; }
    const T* at(size_t i) const { return blocks_[i >> BITS].get() + (i & MASK) * width_; }
    T* grow() {  // room for one more item, at the end
        if ((n_ & MASK) == 0) blocks_.emplace_back(new T[width_ << BITS]);
        return at(n_++);
    }
    size_t bytes() const { return blocks_.size() * (sizeof(T) * width_ << BITS); }

  private:
    static constexpr int BITS = 14;
    static constexpr size_t MASK = (size_t(1) << BITS) - 1;
    size_t width_, n_ = 0;
    std::vector<std::unique_ptr<T[]>> blocks_;
};

// A set of packed positions, each with a number: open addressing over blocks of keys.
class Table {
  public:
    explicit Table(int stride = 1) : stride_(stride), arena_(stride) { slots_.assign(1 << 10, 0); }
    uint32_t size() const { return (uint32_t)arena_.size(); }
    const uint8_t* key(uint32_t i) const { return arena_.at(i); }
    // The index of ``k``, or -1.
    int64_t find(const uint8_t* k) const {
        size_t mask = slots_.size() - 1, at = hash_bytes(k, stride_) & mask;
        while (uint32_t s = slots_[at]) {
            if (!std::memcmp(key(s - 1), k, stride_)) return s - 1;
            at = (at + 1) & mask;
        }
        return -1;
    }
    uint32_t insert(const uint8_t* k) {  // ``k`` must not be there yet
        if ((size_t)(size() + 1) * 10 > slots_.size() * 7) grow();
        uint32_t i = size();
        std::memcpy(arena_.grow(), k, stride_);
        place(i);
        return i;
    }
    size_t bytes() const { return arena_.bytes() + slots_.capacity() * sizeof(uint32_t); }

  private:
    void place(uint32_t i) {
        size_t mask = slots_.size() - 1, at = hash_bytes(key(i), stride_) & mask;
        while (slots_[at]) at = (at + 1) & mask;
        slots_[at] = i + 1;
    }
    void grow() {
        slots_.assign(slots_.size() * 2, 0);
        for (uint32_t i = 0; i < size(); ++i) place(i);
    }
    int stride_;
    Blocks<uint8_t> arena_;
    std::vector<uint32_t> slots_;
};

class OutOfBudget : public std::exception {};
class Interrupted : public std::exception {};

// What stops a search: positions expanded (search and count together) and a deadline.
struct Budget {
    int64_t max_states = -1;
    int64_t expanded = 0;
    double deadline = -1;  // seconds on the steady clock; -1: none
    int (*check_signals)() = nullptr;  // -1 when the user asked to stop
    bool states_spent() const { return max_states >= 0 && expanded >= max_states; }
    static double now() {
        return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    }
    bool time_spent() const { return deadline >= 0 && now() >= deadline; }
};

struct Node {
    uint32_t parent;
    uint16_t move;
    uint8_t g;
    uint8_t closed;  // the f it was first closed at; NOT_CLOSED before
};
constexpr uint8_t NOT_CLOSED = 0xFF;
constexpr uint32_t NO_PARENT = 0xFFFFFFFF;

class Game {
  public:
    Game(Env e, int maxlen0, int maxlen1, int nportals)
        : env(std::move(e)), solo(env), bounds(env, solo), packer(env, maxlen0, maxlen1, nportals) {}
    Env env;
    Solo solo;
    Bounds bounds;
    Packer packer;

    // Every successor of ``p`` in the engine's turn order.
    void successors(const Position& p, std::vector<Position>& out) {
        out.clear();
        if (!alive(p.walk)) return;  // the game is over
        Turn t;
        solo.options(p.walk, p.bagua, env.player, env.lookahead, t);
        out.clear();
        out.reserve(t.options.size());
        for (const Option& o : t.options) {
            Position q;
            q.walk = solo.end_of(t, o, env.player);
            q.bagua = t.baguas[t.bagua_of[o.space]];
            q.coin = 0;  // Grasshopper flows counterclockwise; the coin shows the last flow
            out.push_back(q);
        }
    }
};

enum RunResult { RUNNING = 0, FOUND = 1, EXHAUSTED = 2, SPENT = 3 };

class Search {
  public:
    Search(Game& game, const Position& start)
        : game_(game), table_(game.packer.stride), key_(game.packer.stride) {
        game.packer.pack(start, key_.data());
        table_.insert(key_.data());
        *nodes_.grow() = {NO_PARENT, 0, 0, NOT_CLOSED};
        push(game.bounds.lower(start.walk), 0, 0);
    }
    int64_t expanded = 0, generated = 0, deferred = 0;
    int proved = 0;
    int64_t found = -1;

    // Expand until a win is generated, the open list empties, the budget is spent or ``slice``
    // positions are expanded (then RUNNING: call again).
    int run(Budget& budget, int64_t slice) {
        int64_t stop = expanded + slice;
        std::vector<Position> succ;
        Position p;
        while (minf_ < (int)buckets_.size()) {
            int f = minf_;
            if (f > proved) proved = f;
            if (budget.states_spent()) return SPENT;
            if (expanded >= stop) return RUNNING;
            std::deque<uint64_t>& bucket = buckets_[f];
            uint64_t entry = bucket.back();
            bucket.pop_back();
            --open_;
            settle_min();
            uint32_t i = (uint32_t)entry;
            int g = (int)(entry >> 32);
            if (nodes_.at(i)->g != g) continue;  // stale: reached in fewer turns since
            int h = f - g;
            game_.packer.unpack(table_.key(i), p);
            if (h <= Bounds::SHARP_TURNS &&
                !(h == 1 ? game_.bounds.may_win_now(p) : game_.bounds.may_win_within(p, h))) {
                push(f + 1, g, i);
                close(i, f);
                ++deferred;
                continue;
            }
            game_.successors(p, succ);
            int64_t won = -1;
            for (size_t move = 0; move < succ.size(); ++move) {
                ++generated;
                game_.packer.pack(succ[move], key_.data());
                int64_t k = table_.find(key_.data());
                if (k >= 0 && nodes_.at(k)->g <= g + 1) continue;
                int hk = game_.bounds.lower(succ[move].walk);
                if (hk >= INF) continue;
                if (k < 0) {
                    k = table_.insert(key_.data());
                    nodes_.grow()->closed = NOT_CLOSED;
                }
                Node* node = nodes_.at(k);
                node->parent = i;
                node->move = (uint16_t)move;
                node->g = (uint8_t)(g + 1);
                if (hk == 0) {
                    won = k;
                    break;
                }
                push(g + 1 + hk, g + 1, (uint32_t)k);
            }
            ++expanded;
            ++budget.expanded;
            close(i, f);
            if (won >= 0) {
                found = won;
                return FOUND;
            }
        }
        return EXHAUSTED;
    }

    // The moves (turn numbers) from the start to position ``i``.
    std::vector<int> line(int64_t i) const {
        std::vector<int> moves;
        while (nodes_.at(i)->parent != NO_PARENT) {
            moves.push_back(nodes_.at(i)->move);
            i = nodes_.at(i)->parent;
        }
        return std::vector<int>(moves.rbegin(), moves.rend());
    }
    // How many positions were first closed at each f.
    std::vector<int64_t> closed_counts() const {
        std::vector<int64_t> counts;
        for (size_t i = 0; i < nodes_.size(); ++i)
            if (const Node& n = *nodes_.at(i); n.closed != NOT_CLOSED) {
                if (counts.size() <= n.closed) counts.resize(n.closed + 1, 0);
                ++counts[n.closed];
            }
        return counts;
    }
    int64_t open_count() const { return open_; }
    int64_t positions() const { return table_.size(); }
    size_t bytes() const {
        size_t b = table_.bytes() + nodes_.bytes();
        for (const auto& bucket : buckets_) b += bucket.size() * sizeof(uint64_t);
        return b;
    }
    const uint8_t* key(int64_t i) const { return table_.key((uint32_t)i); }

  private:
    void push(int f, int g, uint32_t i) {
        if (f >= 250 || g >= 250) throw std::overflow_error("more than 250 turns");
        if ((int)buckets_.size() <= f) buckets_.resize(f + 1);
        buckets_[f].push_back((uint64_t)g << 32 | i);
        ++open_;
        if (f < minf_) minf_ = f;
    }
    void settle_min() {
        while (minf_ < (int)buckets_.size() && buckets_[minf_].empty()) ++minf_;
    }
    void close(uint32_t i, int f) {
        if (nodes_.at(i)->closed == NOT_CLOSED) nodes_.at(i)->closed = (uint8_t)f;
    }
    Game& game_;
    Table table_;
    Blocks<Node> nodes_;
    std::vector<std::deque<uint64_t>> buckets_;
    int minf_ = 1 << 30;
    int64_t open_ = 0;
    std::vector<uint8_t> key_;
};

// explicit.win_within, sharing what it proved (``failed``) between calls.
class WinWithin {
  public:
    WinWithin(Game& game, Budget& budget) : game_(game), budget_(budget), failed_(game.packer.stride) {}
    int64_t expanded = 0, generated = 0;
    std::vector<int> line;  // the moves of the last win found, from its start

    bool operator()(const Position& p, int r) {
        line.clear();
        bool won = search(p, r);
        std::reverse(line.begin(), line.end());
        return won;
    }

  private:
    bool search(const Position& p, int r) {
        int h = game_.bounds.lower(p.walk);
        if (h == 0) return true;
        if (h > r || (r <= Bounds::SHARP_TURNS && !game_.bounds.may_win_within(p, r))) return false;
        std::vector<uint8_t> k(game_.packer.stride);
        game_.packer.pack(p, k.data());
        int64_t at = failed_.find(k.data());
        if (at >= 0 && values_[at] >= r) return false;
        if (budget_.states_spent()) throw OutOfBudget();
        if ((budget_.expanded & 1023) == 0) {
            if (budget_.time_spent()) throw OutOfBudget();
            if (budget_.check_signals && budget_.check_signals() < 0) throw Interrupted();
        }
        ++budget_.expanded;
        ++expanded;
        if (r == 1 && !game_.bounds.may_win_now(p)) {
            remember(k.data(), at, 1);
            return false;
        }
        std::vector<Position> succ;
        game_.successors(p, succ);
        for (size_t move = 0; move < succ.size(); ++move) {
            ++generated;
            if (search(succ[move], r - 1)) {
                line.push_back((int)move);  // built from the end, reversed once at the top
                return true;
            }
        }
        remember(k.data(), at, r);
        return false;
    }
    void remember(const uint8_t* k, int64_t at, int r) {
        if (at < 0) {
            at = failed_.insert(k);
            values_.push_back(0);
        }
        values_[at] = r;
    }
    Game& game_;
    Budget& budget_;
    Table failed_;
    std::vector<int> values_;
};

}  // namespace tk
