// taolong_lab._drat: a streaming forward DRAT checker with a memory budget.
//
// The CNF arrives as a flat int32 buffer (each clause's DIMACS literals, then 0), the proof as
// text in pieces (feed), so the proof is never held whole. Every addition is checked when it
// arrives (forward checking): RUP first, then RAT on its first literal; deletions of unit
// clauses are ignored, as every mainstream checker does. Clauses live in one flat uint32 arena
// (a header of two words, then the literals), compacted when half of it is deleted clauses.
//
// The semantics follow dratify 0.1.10's forward checker (the lab's fallback, and the checker
// this one is tested against, accept and reject): the same tokenizer, the same root-level
// propagation, the same reasons. One deliberate difference: a literal naming a variable beyond
// the CNF's is refused (the lab's CNFs are rebuilt, and their proofs introduce no variables).

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int8_t UNDEF = 0, TRUE_ = 1, FALSE_ = -1;
constexpr uint32_t DELETED = 0x80000000u;
// words before a clause's literals: size (| DELETED), hash, the previous live clause with the
// same literals (its cref + 1, 0 for none): duplicates chain, one index entry a literal set
constexpr uint32_t HEADER = 3;
constexpr uint32_t EMPTY = 0, TOMB = 0xFFFFFFFFu;

struct Watch {
    uint32_t cref;
    uint32_t blocker;
};

struct Slot {
    uint32_t hash;
    uint32_t ref;  // cref + 1; EMPTY or TOMB
};

inline uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

enum Status { RUNNING, VERIFIED, REJECTED, SYNTAX, MEMORY, WORK };

class Checker {
  public:
    Checker(uint32_t nvars, uint64_t memory_limit, uint64_t work_limit)
        : nvars_(nvars), memory_limit_(memory_limit), work_limit_(work_limit) {
        val_.assign(2 * (size_t)nvars + 2, UNDEF);
        stamp_.assign(2 * (size_t)nvars + 2, 0);
        watches_.resize(2 * (size_t)nvars + 2);
        table_.assign(1024, Slot{0, EMPTY});
    }

    // ---- the CNF ------------------------------------------------------------------------------
    bool load(const int32_t* data, size_t n, std::string& error) {
        std::vector<uint32_t> lits;
        for (size_t i = 0; i < n; ++i) {
            int32_t d = data[i];
            if (d != 0) {
                uint64_t var = d < 0 ? -(int64_t)d : d;
                if (var > nvars_) {
                    error = "a CNF literal beyond its variables";
                    return false;
                }
                lits.push_back(lit_of(d));
                continue;
            }
            if (dedup(lits)) {  // a tautology: dropped, as dratify's CNF drops it
                lits.clear();
                continue;
            }
            if (lits.empty()) root_conflict_ = true;
            insert(lits);
            lits.clear();
            if (over_memory()) {
                status_ = MEMORY;
                return true;
            }
        }
        if (!lits.empty()) {
            error = "the CNF's last clause has no 0";
            return false;
        }
        for (uint32_t u : units_) {
            if (!assign(u)) {
                root_conflict_ = true;
                break;
            }
        }
        if (!root_conflict_ && propagate(0)) root_conflict_ = true;
        if (root_conflict_) {
            status_ = VERIFIED;
            reached_empty_ = true;
            reason_ = "input formula is refuted by unit propagation alone";
        }
        return true;
    }

    // ---- the proof text, in pieces ---------------------------------------------------------------
    void feed(const char* data, size_t n) {
        text_bytes_ += n;
        for (size_t i = 0; i < n; ++i) {
            if (status_ == SYNTAX || status_ == MEMORY || status_ == WORK) return;
            unsigned char ch = (unsigned char)data[i];
            if (ch >= 0x80) {
                status_ = SYNTAX;
                reason_ = "not ASCII text";
                return;
            }
            if (ch == '\n' && prev_cr_) {  // \r\n is one line break
                prev_cr_ = false;
                continue;
            }
            prev_cr_ = ch == '\r';
            if (is_break(ch)) {
                end_token();
                ++line_;
                line_start_ = true;
                comment_ = false;
                continue;
            }
            if (comment_) continue;
            if (is_space(ch)) {
                end_token();
                continue;
            }
            if (line_start_) {
                line_start_ = false;
                if (ch == 'c') {
                    comment_ = true;
                    continue;
                }
            }
            if (token_.size() < 64) token_.push_back((char)ch);
            else token_long_ = true;
        }
    }

    void finish() {
        if (status_ == SYNTAX || status_ == MEMORY || status_ == WORK) return;
        end_token();
        if (status_ == SYNTAX) return;
        if (opened_) {
            syntax(opened_, "clause not terminated by 0 before the end of the proof");
            return;
        }
        if (status_ == RUNNING) {
            status_ = REJECTED;
            reason_ = "every step verified, but the proof never derives the empty clause";
        }
    }

    // ---- what it found --------------------------------------------------------------------------
    Status status_ = RUNNING;
    std::string reason_;
    bool reached_empty_ = false;
    uint64_t steps_ = 0, rup_ = 0, rat_ = 0, deletions_ = 0, ignored_ = 0;
    uint64_t resolvents_ = 0, failed_step_ = 0, work_ = 0, peak_ = 0, text_bytes_ = 0;
    uint64_t line_ = 1;

    uint64_t memory() const {
        uint64_t bytes = (uint64_t)arena_.capacity() * 4 + (uint64_t)table_.capacity() * 8;
        bytes += watch_entries_ * sizeof(Watch) * 2;  // a vector holds up to twice its entries
        bytes += (uint64_t)watches_.size() * sizeof(std::vector<Watch>);
        bytes += (uint64_t)val_.size() * 2 + (uint64_t)trail_.capacity() * 4;
        bytes += (uint64_t)units_.capacity() * 4 + (uint64_t)lemma_.capacity() * 8;
        return bytes;
    }

  private:
    uint32_t nvars_;
    uint64_t memory_limit_, work_limit_;
    std::vector<uint32_t> arena_;
    std::vector<std::vector<Watch>> watches_;
    uint64_t watch_entries_ = 0;
    std::vector<int8_t> val_;
    std::vector<uint32_t> trail_;
    std::vector<uint32_t> units_;
    std::vector<uint32_t> stamp_;
    uint32_t stamp_now_ = 0;
    std::vector<Slot> table_;
    size_t table_used_ = 0;  // live entries and tombstones
    uint64_t deleted_words_ = 0;
    bool root_conflict_ = false;
    // the tokenizer
    std::string token_;
    bool token_long_ = false, line_start_ = true, comment_ = false, prev_cr_ = false;
    bool deletion_ = false;
    uint64_t opened_ = 0;  // the line where the open clause began, 0 when none is open
    std::vector<uint32_t> lemma_;

    static bool is_break(unsigned char ch) {
        return ch == '\n' || ch == '\r' || ch == 0x0b || ch == 0x0c || ch == 0x1c || ch == 0x1d ||
               ch == 0x1e;
    }
    static bool is_space(unsigned char ch) { return ch == ' ' || ch == '\t' || ch == 0x1f; }

    static uint32_t lit_of(int64_t d) {
        uint64_t var = (d < 0 ? -d : d) - 1;
        return (uint32_t)(2 * var + (d < 0 ? 1 : 0));
    }
    static int64_t dimacs_of(uint32_t lit) {
        int64_t var = (lit >> 1) + 1;
        return (lit & 1) ? -var : var;
    }

    void syntax(uint64_t line, const std::string& what) {
        status_ = SYNTAX;
        reason_ = "proof line " + std::to_string(line) + ": " + what;
    }

    static std::string shown(const std::string& token, bool longer) {
        std::string out = "'";
        for (char c : token) {
            if (c == '\'' || c == '\\') out.push_back('\\');
            if ((unsigned char)c < 0x20 || (unsigned char)c > 0x7e) {
                char hex[8];
                std::snprintf(hex, sizeof hex, "\\x%02x", (unsigned char)c);
                out += hex;
            } else {
                out.push_back(c);
            }
        }
        if (longer) out += "...";
        return out + "'";
    }

    // Python's int() on an ASCII token: a sign, then digits with single underscores between.
    static bool parse_int(const char* s, size_t n, int64_t& value, bool& huge) {
        size_t i = 0;
        bool minus = false;
        if (i < n && (s[i] == '+' || s[i] == '-')) minus = s[i++] == '-';
        if (i >= n) return false;
        uint64_t v = 0;
        bool digit_before = false;
        huge = false;
        for (; i < n; ++i) {
            char c = s[i];
            if (c == '_') {
                if (!digit_before || i + 1 >= n || s[i + 1] < '0' || s[i + 1] > '9') return false;
                digit_before = false;
                continue;
            }
            if (c < '0' || c > '9') return false;
            digit_before = true;
            if (v > (1ull << 40)) huge = true;
            else v = v * 10 + (uint64_t)(c - '0');
        }
        value = minus ? -(int64_t)v : (int64_t)v;
        return true;
    }

    void end_token() {
        if (token_.empty()) return;
        std::string tok;
        tok.swap(token_);
        bool longer = token_long_;
        token_long_ = false;
        const char* num = tok.data();
        size_t len = tok.size();
        if (tok[0] == 'd') {
            if (opened_) {
                syntax(line_, shown(tok, longer) + " inside a clause (a deletion can only start one)");
                return;
            }
            deletion_ = true;
            opened_ = line_;
            ++num;
            --len;
            if (len == 0) return;
        }
        int64_t d = 0;
        bool huge = false;
        if (longer || !parse_int(num, len, d, huge)) {
            syntax(line_, "bad token " + shown(tok, longer));
            return;
        }
        if (d == 0 && !huge) {
            step();
            deletion_ = false;
            opened_ = 0;
            lemma_.clear();
            return;
        }
        uint64_t var = huge ? UINT64_MAX : (uint64_t)(d < 0 ? -d : d);
        if (var > nvars_) {
            syntax(line_, "literal " + (huge ? std::string("(over 13 digits)") : std::to_string(d)) +
                              " names a variable beyond the CNF's " + std::to_string(nvars_));
            return;
        }
        lemma_.push_back(lit_of(d));
        if (!opened_) opened_ = line_;
    }

    // ---- one step of the proof ---------------------------------------------------------------
    void step() {
        if (status_ != RUNNING) return;  // decided: the rest is only read for its syntax
        ++steps_;
        dedup(lemma_);  // a tautology stays (as in dratify, it is RUP)
        if (deletion_) {
            if (lemma_.size() <= 1 || !erase(lemma_)) ++ignored_;
            else ++deletions_;
            collect();
            return;
        }
        if (rup(lemma_)) {
            ++rup_;
        } else if (work_ <= work_limit_ && rat(lemma_)) {
            ++rat_;
        } else {
            if (status_ != RUNNING) return;  // out of work
            if (work_ > work_limit_) {
                out_of_work();
                return;
            }
            status_ = REJECTED;
            failed_step_ = steps_;
            reason_ = "clause is neither RUP nor RAT with respect to the clauses available at this "
                      "point";
            return;
        }
        if (lemma_.empty()) {
            reached_empty_ = true;
            status_ = VERIFIED;
            reason_ = "empty clause derived and every step verified";
            return;
        }
        add_lemma(lemma_);
        if (over_memory()) status_ = MEMORY;
        else if (work_ > work_limit_) out_of_work();
    }

    bool over_memory() {
        uint64_t bytes = memory();
        if (bytes > peak_) peak_ = bytes;
        if (bytes > memory_limit_ || arena_.size() > 0xF0000000ull) {
            reason_ = "needs more than its memory budget of " + std::to_string(memory_limit_) +
                      " bytes";
            return true;
        }
        return false;
    }

    // Repeated literals removed, the first occurrence kept; true when the clause is a tautology.
    bool dedup(std::vector<uint32_t>& lits) {
        ++stamp_now_;
        bool tautology = false;
        size_t j = 0;
        for (uint32_t l : lits) {
            if (stamp_[l] == stamp_now_) continue;
            if (stamp_[l ^ 1] == stamp_now_) tautology = true;
            stamp_[l] = stamp_now_;
            lits[j++] = l;
        }
        lits.resize(j);
        return tautology;
    }

    // ---- assignments and propagation ------------------------------------------------------------
    bool assign(uint32_t lit) {
        int8_t v = val_[lit];
        if (v == TRUE_) return true;
        if (v == FALSE_) return false;
        val_[lit] = TRUE_;
        val_[lit ^ 1] = FALSE_;
        trail_.push_back(lit);
        return true;
    }

    void backtrack(size_t size) {
        for (size_t i = trail_.size(); i > size; --i) {
            uint32_t lit = trail_[i - 1];
            val_[lit] = UNDEF;
            val_[lit ^ 1] = UNDEF;
        }
        trail_.resize(size);
    }

    // True on a conflict.
    bool propagate(size_t head) {
        while (head < trail_.size()) {
            uint32_t false_lit = trail_[head++] ^ 1;
            std::vector<Watch>& ws = watches_[false_lit];
            size_t i = 0, j = 0, n = ws.size();
            bool conflict = false;
            while (i < n) {
                Watch w = ws[i++];
                ++work_;
                if (val_[w.blocker] == TRUE_) {
                    ws[j++] = w;
                    continue;
                }
                uint32_t* c = &arena_[w.cref];
                if (c[0] & DELETED) {
                    --watch_entries_;
                    continue;
                }
                uint32_t size = c[0];
                uint32_t* lits = c + HEADER;
                if (lits[0] == false_lit) {
                    lits[0] = lits[1];
                    lits[1] = false_lit;
                }
                uint32_t first = lits[0];
                if (val_[first] == TRUE_) {
                    ws[j++] = Watch{w.cref, first};
                    continue;
                }
                bool moved = false;
                for (uint32_t k = 2; k < size; ++k) {
                    if (val_[lits[k]] != FALSE_) {
                        lits[1] = lits[k];
                        lits[k] = false_lit;
                        watches_[lits[1]].push_back(Watch{w.cref, first});
                        moved = true;
                        break;
                    }
                }
                work_ += size;
                if (moved) continue;
                ws[j++] = Watch{w.cref, first};
                if (val_[first] == FALSE_) {
                    conflict = true;
                    while (i < n) ws[j++] = ws[i++];
                    break;
                }
                assign(first);
            }
            ws.resize(j);
            if (conflict) return true;
        }
        return false;
    }

    bool rup(const std::vector<uint32_t>& lits) {
        if (root_conflict_) return true;
        size_t mark = trail_.size();
        bool conflict = false;
        for (uint32_t l : lits) {
            if (val_[l] == TRUE_ || !assign(l ^ 1)) {
                conflict = true;
                break;
            }
        }
        if (!conflict) conflict = propagate(mark);
        backtrack(mark);
        return conflict;
    }

    // RAT on the first literal: every resolvent with a clause holding its negation is RUP.
    bool rat(const std::vector<uint32_t>& lits) {
        if (lits.empty()) return false;
        uint32_t neg = lits[0] ^ 1;
        uint32_t mark = ++stamp_now_;  // the lemma's literals: rup() leaves the stamps alone
        for (uint32_t l : lits) stamp_[l] = mark;
        size_t at = 0;
        while (at < arena_.size()) {
            uint32_t size = arena_[at] & ~DELETED;
            bool deleted = arena_[at] & DELETED;
            const uint32_t* d = &arena_[at + HEADER];
            at += HEADER + size;
            work_ += size;
            if (work_ > work_limit_) {
                out_of_work();
                return false;
            }
            if (deleted) continue;
            bool has = false;
            for (uint32_t k = 0; k < size; ++k) has |= d[k] == neg;
            if (!has) continue;
            std::vector<uint32_t> resolvent(lits);
            bool tautology = false;
            for (uint32_t k = 0; k < size && !tautology; ++k) {
                uint32_t l = d[k];
                if (l == neg) continue;
                if (stamp_[l ^ 1] == mark) tautology = true;
                else if (stamp_[l] != mark) resolvent.push_back(l);
            }
            if (tautology) continue;
            ++resolvents_;
            if (!rup(resolvent)) return false;
        }
        return true;
    }

    void out_of_work() {
        status_ = WORK;
        reason_ = "needs more than its work budget of " + std::to_string(work_limit_) +
                  " propagation steps";
    }

    // ---- the clause store -------------------------------------------------------------------
    static uint32_t key_hash(const uint32_t* lits, uint32_t size) {
        uint64_t h = 0x51ED270B27A3F0C5ull;
        for (uint32_t k = 0; k < size; ++k) h += mix(lits[k]);
        return (uint32_t)(h ^ (h >> 32));
    }

    uint32_t insert(const std::vector<uint32_t>& lits) {
        uint32_t size = (uint32_t)lits.size();
        uint32_t cref = (uint32_t)arena_.size();
        uint32_t hash = key_hash(lits.data(), size);
        arena_.push_back(size);
        arena_.push_back(hash);
        arena_.push_back(0);
        arena_.insert(arena_.end(), lits.begin(), lits.end());
        if (size >= 2) {
            watches_[lits[0]].push_back(Watch{cref, lits[1]});
            watches_[lits[1]].push_back(Watch{cref, lits[0]});
            watch_entries_ += 2;
        } else if (size == 1) {
            units_.push_back(lits[0]);
        }
        index(cref);
        return cref;
    }

    // The slot of the live literal set of clause ``cref`` (its hash and literals), or of the
    // first empty slot after its probe when there is none.
    size_t slot_of(const uint32_t* lits, uint32_t size, uint32_t hash) {
        ++stamp_now_;
        for (uint32_t k = 0; k < size; ++k) stamp_[lits[k]] = stamp_now_;
        size_t mask = table_.size() - 1;
        size_t tomb = SIZE_MAX;
        for (size_t i = hash & mask;; i = (i + 1) & mask) {
            const Slot& s = table_[i];
            if (s.ref == EMPTY) return tomb != SIZE_MAX ? tomb : i;
            if (s.ref == TOMB) {
                if (tomb == SIZE_MAX) tomb = i;
                continue;
            }
            if (s.hash != hash) continue;
            const uint32_t* c = &arena_[s.ref - 1];
            if ((c[0] & ~DELETED) != size) continue;
            bool same = true;
            for (uint32_t k = 0; k < size && same; ++k) same = stamp_[c[HEADER + k]] == stamp_now_;
            if (same) return i;
        }
    }

    void index(uint32_t cref) {
        if ((table_used_ + 1) * 2 > table_.size()) rehash(table_.size() * 2);
        uint32_t size = arena_[cref] & ~DELETED, hash = arena_[cref + 1];
        size_t i = slot_of(&arena_[cref + HEADER], size, hash);
        Slot& s = table_[i];
        if (s.ref != EMPTY && s.ref != TOMB) {
            arena_[cref + 2] = s.ref;  // a duplicate: it chains to the one indexed before
        } else if (s.ref == EMPTY) {
            ++table_used_;
        }
        s = Slot{hash, cref + 1};
    }

    void rehash(size_t size) {
        std::vector<Slot> old;
        old.swap(table_);
        size_t live = 0;
        for (const Slot& s : old) live += s.ref != EMPTY && s.ref != TOMB;
        while (size < 1024 || (live + 1) * 4 > size) size *= 2;
        table_.assign(size, Slot{0, EMPTY});
        table_used_ = 0;
        size_t mask = size - 1;
        for (const Slot& s : old) {
            if (s.ref == EMPTY || s.ref == TOMB) continue;
            for (size_t i = s.hash & mask;; i = (i + 1) & mask) {
                if (table_[i].ref == EMPTY) {
                    table_[i] = s;
                    ++table_used_;
                    break;
                }
            }
        }
    }

    // The live clause with the literals of ``lits`` (deduplicated), removed: the one indexed
    // last, as in dratify.
    bool erase(const std::vector<uint32_t>& lits) {
        uint32_t size = (uint32_t)lits.size();
        size_t i = slot_of(lits.data(), size, key_hash(lits.data(), size));
        Slot& s = table_[i];
        if (s.ref == EMPTY || s.ref == TOMB) return false;
        uint32_t cref = s.ref - 1;
        uint32_t before = arena_[cref + 2];
        s.ref = before != 0 ? before : TOMB;
        arena_[cref] |= DELETED;
        deleted_words_ += HEADER + size;
        return true;
    }

    void add_lemma(const std::vector<uint32_t>& lits) {
        for (uint32_t l : lits) {
            if (val_[l] == TRUE_) {
                insert(lits);  // satisfied at the root: inert
                return;
            }
        }
        std::vector<uint32_t> stored;
        for (uint32_t l : lits)
            if (val_[l] != FALSE_) stored.push_back(l);
        size_t free = stored.size();
        for (uint32_t l : lits)
            if (val_[l] == FALSE_) stored.push_back(l);
        insert(stored);
        if (free >= 2) return;
        if (free == 0) {
            root_conflict_ = true;
        } else if (assign(stored[0])) {
            if (propagate(trail_.size() - 1)) root_conflict_ = true;
        } else {
            root_conflict_ = true;
        }
    }

    // Compaction: when half the arena is deleted clauses, the live ones move down, and the
    // watches and the index are built again (at the root, between steps: the watched literals
    // are the first two of each clause, so nothing else changes).
    void collect() {
        if (arena_.size() < (1u << 20) || deleted_words_ * 2 < arena_.size()) return;
        std::vector<uint32_t> fresh;
        fresh.reserve(arena_.size() - deleted_words_);
        for (size_t at = 0; at < arena_.size();) {
            uint32_t size = arena_[at] & ~DELETED;
            if (!(arena_[at] & DELETED)) {
                size_t cref = fresh.size();
                fresh.insert(fresh.end(), arena_.begin() + at, arena_.begin() + at + HEADER + size);
                fresh[cref + 2] = 0;
            }
            at += HEADER + size;
        }
        arena_.swap(fresh);
        std::vector<uint32_t>().swap(fresh);
        deleted_words_ = 0;
        for (auto& ws : watches_) std::vector<Watch>().swap(ws);
        watch_entries_ = 0;
        table_.assign(1024, Slot{0, EMPTY});
        table_used_ = 0;
        for (size_t at = 0; at < arena_.size();) {
            uint32_t cref = (uint32_t)at, size = arena_[at];
            const uint32_t* lits = &arena_[at + HEADER];
            if (size >= 2) {
                watches_[lits[0]].push_back(Watch{cref, lits[1]});
                watches_[lits[1]].push_back(Watch{cref, lits[0]});
                watch_entries_ += 2;
            }
            index(cref);
            at += HEADER + size;
        }
    }
};

// ---- the Python type ---------------------------------------------------------------------------
struct CheckerObject {
    PyObject_HEAD Checker* checker;
};

void checker_dealloc(CheckerObject* self) {
    delete self->checker;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

int checker_init(CheckerObject* self, PyObject* args, PyObject* kwargs) {
    static const char* names[] = {"nvars", "clauses", "memory", "work", nullptr};
    unsigned long long nvars, memory, work;
    Py_buffer clauses;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "Ky*KK", (char**)names, &nvars, &clauses,
                                     &memory, &work))
        return -1;
    if (nvars >= (1ull << 31) || nvars * 64 > memory) {
        PyBuffer_Release(&clauses);
        PyErr_SetString(PyExc_MemoryError, "its variables alone need more than the memory budget");
        return -1;
    }
    if (clauses.itemsize != 4 || clauses.len % 4 != 0) {
        PyBuffer_Release(&clauses);
        PyErr_SetString(PyExc_ValueError, "clauses: a buffer of int32");
        return -1;
    }
    delete self->checker;
    self->checker = nullptr;
    std::string error;
    bool ok = false;
    try {
        self->checker = new Checker((uint32_t)nvars, memory, work);
        Py_BEGIN_ALLOW_THREADS
        ok = self->checker->load((const int32_t*)clauses.buf, (size_t)clauses.len / 4, error);
        Py_END_ALLOW_THREADS
    } catch (const std::bad_alloc&) {
        PyBuffer_Release(&clauses);
        PyErr_NoMemory();
        return -1;
    }
    PyBuffer_Release(&clauses);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, error.c_str());
        return -1;
    }
    return 0;
}

Checker* checker_of(CheckerObject* self) {
    if (self->checker == nullptr) PyErr_SetString(PyExc_RuntimeError, "Checker not initialised");
    return self->checker;
}

PyObject* checker_feed(CheckerObject* self, PyObject* arg) {
    Checker* c = checker_of(self);
    if (c == nullptr) return nullptr;
    Py_buffer data;
    if (PyObject_GetBuffer(arg, &data, PyBUF_SIMPLE) < 0) return nullptr;
    try {
        Py_BEGIN_ALLOW_THREADS
        c->feed((const char*)data.buf, (size_t)data.len);
        Py_END_ALLOW_THREADS
    } catch (const std::bad_alloc&) {
        PyBuffer_Release(&data);
        return PyErr_NoMemory();
    }
    PyBuffer_Release(&data);
    Py_RETURN_NONE;
}

const char* status_name(Status s) {
    switch (s) {
        case VERIFIED: return "verified";
        case REJECTED: return "rejected";
        case SYNTAX: return "syntax";
        case MEMORY: return "memory";
        case WORK: return "work";
        default: return "running";
    }
}

PyObject* checker_finish(CheckerObject* self, PyObject*) {
    Checker* c = checker_of(self);
    if (c == nullptr) return nullptr;
    c->finish();
    typedef unsigned long long ull;
    uint64_t peak = c->peak_ > c->memory() ? c->peak_ : c->memory();
    return Py_BuildValue(
        "{s:s,s:s,s:O,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}", "status", status_name(c->status_),
        "reason", c->reason_.c_str(), "reached_empty", c->reached_empty_ ? Py_True : Py_False,
        "steps", (ull)c->steps_, "rup_steps", (ull)c->rup_, "rat_steps", (ull)c->rat_,
        "deletions", (ull)c->deletions_, "ignored_deletions", (ull)c->ignored_,
        "resolvents_checked", (ull)c->resolvents_, "failed_step", (ull)c->failed_step_, "work",
        (ull)c->work_, "peak_bytes", (ull)peak, "text_bytes", (ull)c->text_bytes_);
}

PyMethodDef checker_methods[] = {
    {"feed", (PyCFunction)checker_feed, METH_O, "feed(data): the next piece of the proof text"},
    {"finish", (PyCFunction)checker_finish, METH_NOARGS,
     "finish() -> dict: the end of the proof text, and the verdict"},
    {nullptr, nullptr, 0, nullptr},
};

PyTypeObject CheckerType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "taolong_lab._drat",
    "A streaming forward DRAT checker with a memory budget (native/drat/drat.cpp).", -1, nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit__drat(void) {
    CheckerType.tp_name = "taolong_lab._drat.Checker";
    CheckerType.tp_basicsize = sizeof(CheckerObject);
    CheckerType.tp_flags = Py_TPFLAGS_DEFAULT;
    CheckerType.tp_doc =
        "Checker(nvars, clauses, memory, work): a forward DRAT check of a proof fed in pieces "
        "against the CNF ``clauses`` (int32 DIMACS literals, each clause ended by 0), within "
        "``memory`` bytes and ``work`` propagation steps.";
    CheckerType.tp_new = PyType_GenericNew;
    CheckerType.tp_init = (initproc)checker_init;
    CheckerType.tp_dealloc = (destructor)checker_dealloc;
    CheckerType.tp_methods = checker_methods;
    if (PyType_Ready(&CheckerType) < 0) return nullptr;
    PyObject* module = PyModule_Create(&module_def);
    if (module == nullptr) return nullptr;
    Py_INCREF(&CheckerType);
    if (PyModule_AddObject(module, "Checker", (PyObject*)&CheckerType) < 0) {
        Py_DECREF(&CheckerType);
        Py_DECREF(module);
        return nullptr;
    }
    return module;
}
