// taolong_lab.solvers._kernel: the compiled solo search, behind taolong_lab/solvers/kernel.py.
// Positions cross this boundary as bytes in the layout that module documents.
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "search.hpp"

namespace {

using namespace tk;

constexpr int SPEC_VERSION = 1;
constexpr int KERNEL_VERSION = 1;

// ---- reading what Python hands over -------------------------------------------------------
struct Reader {
    const int32_t* p;
    Py_ssize_t n, at = 0;
    bool ok = true;
    int next(int lo, int hi) {
        if (at >= n) {
            ok = false;
            return lo;
        }
        int v = p[at++];
        if (v < lo || v > hi) {
            ok = false;
            return lo;
        }
        return v;
    }
};

bool read_env(Reader& r, Env& env, int& maxlen0, int& maxlen1, int& nportals) {
    if (r.next(0, 99) != SPEC_VERSION) return false;
    env.width = r.next(1, 64);
    env.height = r.next(1, 64);
    env.size = env.width * env.height;
    if (env.size > MAXCELLS) return false;
    env.full = env.size == 64 ? ~0ULL : (1ULL << env.size) - 1;
    env.wrap = r.next(0, 1);
    env.player = r.next(0, 1);
    env.cap = r.next(1, 15);
    env.tail_first = r.next(0, 1);
    env.bite_on_stay = r.next(0, 1);
    env.lookahead = r.next(LOOK_MATTER, LOOK_NEXT_TURN);
    env.protector = r.next(-1, 1);
    nportals = 0;
    for (int c = 0; c < env.size; ++c) {
        uint64_t b = 1ULL << c;
        if (r.next(0, 1)) env.static_mask |= b;
        if (r.next(0, 1)) env.village_mask |= b;
        if (r.next(0, 1)) env.beside_village |= b;
        if (r.next(0, 1)) {
            env.portal_mask |= b;
            ++nportals;
        }
        env.portal_cost[c] = (int8_t)r.next(0, 2);
        int count = r.next(0, 16);
        for (int k = 0; k < count; ++k) env.exits[c].push_back((int8_t)r.next(0, env.size - 1));
        for (int d = 0; d < 4; ++d) env.nbr[c][d] = (int8_t)r.next(-1, env.size - 1);
    }
    if (nportals > 16) return false;
    env.nruler = r.next(0, 8);
    for (int k = 0; k < env.size * 4; ++k)
        for (int e = 0; e < env.nruler; ++e) {
            RulerEntry& x = env.ruler[k][e];
            x.cell = (int8_t)r.next(-1, env.size - 1);
            x.value = (int8_t)r.next(0, 100);
            x.blocked_by = (uint8_t)r.next(0, 255);
        }
    for (int s = 0; s < RING; ++s) {
        env.move[s] = r.next(0, 3);
        env.axis[s] = r.next(-1, 1);
        env.is_fire[s] = r.next(0, 1);
        env.is_water[s] = r.next(0, 1);
    }
    env.nrocks = r.next(0, MAXR);
    for (int k = 0; k < env.nrocks; ++k) env.rock_cell[k] = (int8_t)r.next(0, env.size - 1);
    env.per_turn = r.next(1, 1 << 20);
    env.rmax = r.next(0, 1 << 20);
    env.water_bonus = r.next(0, 1 << 20);
    env.tramples = r.next(0, 1);
    env.portal_damage = r.next(0, 1);
    maxlen0 = r.next(2, MAXC);
    maxlen1 = r.next(2, MAXC);
    env.make_shifts();
    return r.ok && r.at == r.n;
}

// A position's bytes: coin, centre water, centre fire; each dragon as len, water, fire,
// nlinks, its cells, then (i, exit, entry) per link; each rock's hits; each stack as its
// length and its stones (1: black), base first.
bool read_position(const Game& game, const uint8_t* b, Py_ssize_t n, Position& p) {
    const Env& env = game.env;
    Py_ssize_t at = 0;
    auto next = [&](int hi) -> int {
        if (at >= n) return -1;
        int v = b[at++];
        return v <= hi ? v : -1;
    };
    int coin = next(1), water = next(15), fire = next(15);
    if (coin < 0 || water < 0 || fire < 0) return false;
    p.coin = (uint8_t)coin;
    p.walk.water = (int8_t)water;
    p.walk.fire = (int8_t)fire;
    int total = 0;
    for (int c = 0; c < 2; ++c) {
        Dragon& d = p.walk.d[c];
        int len = next(MAXC), w = next(15), f = next(15), nl = next(MAXC);
        if (len < 1 || len > MAXC || w < 0 || f < 0 || nl < 0 || nl >= len) return false;
        d = Dragon();
        d.len = (uint8_t)len;
        d.water = (uint8_t)w;
        d.fire = (uint8_t)f;
        d.nlinks = (uint8_t)nl;
        for (int k = 0; k < len; ++k) {
            int cell = next(env.size - 1);
            if (cell < 0) return false;
            d.cells[k] = (int8_t)cell;
        }
        for (int k = 0; k < nl; ++k) {
            int i = next(len - 2), x = next(env.size - 1), e = next(env.size - 1);
            if (i < 0 || x < 0 || e < 0 || !(env.portal_mask >> x & 1) || !(env.portal_mask >> e & 1))
                return false;
            d.links[k] = {(int8_t)i, (int8_t)x, (int8_t)e};
        }
    }
    for (int r = 0; r < env.nrocks; ++r) {
        int h = next(3);
        if (h < 0) return false;
        p.walk.hits[r] = (uint8_t)h;
    }
    for (int s = 0; s < RING; ++s) {
        int len = next(15);
        if (len < 0) return false;
        p.bagua.len[s] = (uint8_t)len;
        p.bagua.stones[s] = 0;
        for (int k = 0; k < len; ++k) {
            int stone = next(1);
            if (stone < 0) return false;
            p.bagua.stones[s] |= (uint32_t)stone << k;
        }
        total += len;
    }
    return at == n && total <= 15;
}

PyObject* position_bytes(const Game& game, const Position& p) {
    std::vector<uint8_t> out;
    out.reserve(64);
    out.push_back(p.coin);
    out.push_back((uint8_t)p.walk.water);
    out.push_back((uint8_t)p.walk.fire);
    for (int c = 0; c < 2; ++c) {
        const Dragon& d = p.walk.d[c];
        out.push_back(d.len);
        out.push_back(d.water);
        out.push_back(d.fire);
        out.push_back(d.nlinks);
        for (int k = 0; k < d.len; ++k) out.push_back((uint8_t)d.cells[k]);
        for (int k = 0; k < d.nlinks; ++k) {
            out.push_back((uint8_t)d.links[k].i);
            out.push_back((uint8_t)d.links[k].exit);
            out.push_back((uint8_t)d.links[k].entry);
        }
    }
    for (int r = 0; r < game.env.nrocks; ++r) out.push_back(p.walk.hits[r]);
    for (int s = 0; s < RING; ++s) {
        out.push_back(p.bagua.len[s]);
        for (int k = 0; k < p.bagua.len[s]; ++k) out.push_back((uint8_t)(p.bagua.stones[s] >> k & 1));
    }
    return PyBytes_FromStringAndSize((const char*)out.data(), (Py_ssize_t)out.size());
}

// ---- the Game type ------------------------------------------------------------------------
struct GameObject {
    PyObject_HEAD Game* game;
};

struct SearchObject {
    PyObject_HEAD GameObject* owner;
    Search* search;
    Budget budget;
    int64_t count_expanded;
};

struct ProverObject {
    PyObject_HEAD GameObject* owner;
    Budget* budget;
    WinWithin* win;
};

extern PyTypeObject GameType;
extern PyTypeObject SearchType;
extern PyTypeObject ProverType;

int check_signals() { return PyErr_CheckSignals(); }

bool position_arg(GameObject* self, PyObject* arg, Position& p) {
    char* data;
    Py_ssize_t n;
    if (PyBytes_AsStringAndSize(arg, &data, &n) < 0) return false;
    if (!read_position(*self->game, (const uint8_t*)data, n, p)) {
        PyErr_SetString(PyExc_ValueError, "not a position of this kernel game");
        return false;
    }
    return true;
}

// Run ``body``, turning C++ failures into Python exceptions.
template <class F>
PyObject* guarded(F body) {
    try {
        return body();
    } catch (const Interrupted&) {
        if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        return nullptr;
    } catch (const std::bad_alloc&) {
        return PyErr_NoMemory();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
        return nullptr;
    }
}

int game_init(GameObject* self, PyObject* args, PyObject*) {
    Py_buffer spec;
    if (!PyArg_ParseTuple(args, "y*", &spec)) return -1;
    Env env;
    int maxlen0 = 0, maxlen1 = 0, nportals = 0;
    Reader r{(const int32_t*)spec.buf, spec.len / (Py_ssize_t)sizeof(int32_t)};
    bool ok = spec.len % sizeof(int32_t) == 0 && read_env(r, env, maxlen0, maxlen1, nportals);
    PyBuffer_Release(&spec);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a kernel game specification");
        return -1;
    }
    delete self->game;
    self->game = new Game(std::move(env), maxlen0, maxlen1, nportals);
    return 0;
}

void game_dealloc(GameObject* self) {
    delete self->game;
    Py_TYPE(self)->tp_free((PyObject*)self);
}

PyObject* game_successors(GameObject* self, PyObject* arg) {
    Position p;
    if (!position_arg(self, arg, p)) return nullptr;
    return guarded([&]() -> PyObject* {
        std::vector<Position> succ;
        self->game->successors(p, succ);
        PyObject* list = PyList_New((Py_ssize_t)succ.size());
        if (!list) return nullptr;
        for (size_t k = 0; k < succ.size(); ++k) {
            PyObject* item = position_bytes(*self->game, succ[k]);
            if (!item) {
                Py_DECREF(list);
                return nullptr;
            }
            PyList_SET_ITEM(list, (Py_ssize_t)k, item);
        }
        return list;
    });
}

PyObject* game_lower_bound(GameObject* self, PyObject* arg) {
    Position p;
    if (!position_arg(self, arg, p)) return nullptr;
    int h = self->game->bounds.lower(p.walk);
    return PyLong_FromLong(h >= INF ? -1 : h);
}

PyObject* game_may_win_within(GameObject* self, PyObject* args) {
    PyObject* pos;
    int turns;
    if (!PyArg_ParseTuple(args, "Si", &pos, &turns)) return nullptr;
    Position p;
    if (!position_arg(self, pos, p)) return nullptr;
    return guarded([&]() -> PyObject* {
        bool yes = turns == 1 ? self->game->bounds.may_win_now(p) : self->game->bounds.may_win_within(p, turns);
        return PyBool_FromLong(yes);
    });
}

PyObject* game_may_win_within_loose(GameObject* self, PyObject* args) {
    PyObject* pos;
    int turns;
    if (!PyArg_ParseTuple(args, "Si", &pos, &turns)) return nullptr;
    Position p;
    if (!position_arg(self, pos, p)) return nullptr;
    return PyBool_FromLong(self->game->bounds.may_win_within(p, turns));
}

PyObject* game_search(GameObject* self, PyObject* args) {
    PyObject* pos;
    long long max_states;
    if (!PyArg_ParseTuple(args, "SL", &pos, &max_states)) return nullptr;
    Position p;
    if (!position_arg(self, pos, p)) return nullptr;
    SearchObject* s = PyObject_New(SearchObject, &SearchType);
    if (!s) return nullptr;
    s->search = nullptr;
    s->budget = Budget();
    s->budget.max_states = max_states;
    s->budget.check_signals = check_signals;
    s->count_expanded = 0;
    Py_INCREF(self);
    s->owner = self;
    PyObject* made = guarded([&]() -> PyObject* {
        s->search = new Search(*self->game, p);
        return Py_None;
    });
    if (!made) {
        Py_DECREF(s);
        return nullptr;
    }
    return (PyObject*)s;
}

PyObject* game_prover(GameObject* self, PyObject*) {
    ProverObject* p = PyObject_New(ProverObject, &ProverType);
    if (!p) return nullptr;
    p->budget = new Budget();
    p->budget->check_signals = check_signals;
    p->win = new WinWithin(*self->game, *p->budget);
    Py_INCREF(self);
    p->owner = self;
    return (PyObject*)p;
}

PyMethodDef game_methods[] = {
    {"prover", (PyCFunction)game_prover, METH_NOARGS,
     "A depth-first prover of wins within some turns, remembering what it proved."},
    {"successors", (PyCFunction)game_successors, METH_O, "Every successor, in the engine's turn order."},
    {"lower_bound", (PyCFunction)game_lower_bound, METH_O, "bounds.lower_bound; -1 for infinity."},
    {"may_win_within", (PyCFunction)game_may_win_within, METH_VARARGS,
     "bounds.may_win_within (for one turn: may_win_now)."},
    {"may_win_within_loose", (PyCFunction)game_may_win_within_loose, METH_VARARGS,
     "bounds.may_win_within, one turn included."},
    {"search", (PyCFunction)game_search, METH_VARARGS, "A new A* search from a position."},
    {nullptr, nullptr, 0, nullptr},
};

// ---- the Search type ----------------------------------------------------------------------
void search_dealloc(SearchObject* self) {
    delete self->search;
    Py_XDECREF(self->owner);
    PyObject_Free(self);
}

PyObject* search_run(SearchObject* self, PyObject* args) {
    long long slice;
    double deadline;
    if (!PyArg_ParseTuple(args, "Ld", &slice, &deadline)) return nullptr;
    self->budget.deadline = deadline < 0 ? -1 : Budget::now() + deadline;
    return guarded([&]() -> PyObject* {
        int64_t left = slice;
        while (true) {  // in steps, to look at the clock and hear Ctrl-C as Python does
            int result = self->search->run(self->budget, 0);  // the proved bound, settled
            if (result != RUNNING || left <= 0 || self->budget.time_spent()) return PyLong_FromLong(result);
            int64_t step = left < 256 ? left : 256;
            result = self->search->run(self->budget, step);
            left -= step;
            if (result != RUNNING) return PyLong_FromLong(result);
            if (PyErr_CheckSignals() < 0) return (PyObject*)nullptr;
        }
    });
}

PyObject* search_count(SearchObject* self, PyObject* args) {
    int optimum;
    double deadline;
    PyObject* callback;
    if (!PyArg_ParseTuple(args, "idO", &optimum, &deadline, &callback)) return nullptr;
    self->budget.deadline = deadline < 0 ? -1 : Budget::now() + deadline;
    Search& search = *self->search;
    if (search.found < 0) {
        PyErr_SetString(PyExc_ValueError, "the search has found no win yet");
        return nullptr;
    }
    Game& game = *self->owner->game;
    return guarded([&]() -> PyObject* {
        Position start;
        game.packer.unpack(search.key(0), start);
        std::vector<Position> firsts;
        game.successors(start, firsts);
        WinWithin win(game, self->budget);
        int64_t wins = 0;
        PyObject* total = PyLong_FromSsize_t((Py_ssize_t)firsts.size());
        if (!total) return nullptr;
        PyObject* r = PyObject_CallOneArg(callback, total);  // the number of first turns
        Py_DECREF(total);
        if (!r) return nullptr;
        Py_DECREF(r);
        try {
            for (const Position& q : firsts) {
                wins += win(q, optimum - 1);
                self->count_expanded = win.expanded;
                PyObject* done = PyObject_CallOneArg(callback, Py_None);
                if (!done) return nullptr;
                Py_DECREF(done);
            }
        } catch (const OutOfBudget&) {
            self->count_expanded = win.expanded;
            Py_RETURN_NONE;
        }
        return PyLong_FromLongLong(wins);
    });
}

PyObject* search_line(SearchObject* self, PyObject*) {
    if (self->search->found < 0) return PyList_New(0);
    std::vector<int> moves = self->search->line(self->search->found);
    PyObject* list = PyList_New((Py_ssize_t)moves.size());
    if (!list) return nullptr;
    for (size_t k = 0; k < moves.size(); ++k) PyList_SET_ITEM(list, (Py_ssize_t)k, PyLong_FromLong(moves[k]));
    return list;
}

PyObject* search_found_position(SearchObject* self, PyObject*) {
    if (self->search->found < 0) Py_RETURN_NONE;
    Position p;
    self->owner->game->packer.unpack(self->search->key(self->search->found), p);
    return position_bytes(*self->owner->game, p);
}

PyObject* search_closed_counts(SearchObject* self, PyObject*) {
    std::vector<int64_t> counts = self->search->closed_counts();
    PyObject* list = PyList_New((Py_ssize_t)counts.size());
    if (!list) return nullptr;
    for (size_t k = 0; k < counts.size(); ++k) PyList_SET_ITEM(list, (Py_ssize_t)k, PyLong_FromLongLong(counts[k]));
    return list;
}

PyObject* search_stats(SearchObject* self, PyObject*) {
    const Search& s = *self->search;
    return Py_BuildValue("{s:L,s:L,s:L,s:i,s:L,s:L,s:L,s:L,s:L}", "expanded", (long long)s.expanded,
                         "generated", (long long)s.generated, "deferred", (long long)s.deferred, "proved",
                         s.proved, "open", (long long)s.open_count(), "positions", (long long)s.positions(),
                         "bytes", (long long)s.bytes(), "budget_expanded", (long long)self->budget.expanded,
                         "count_expanded", (long long)self->count_expanded);
}

PyMethodDef search_methods[] = {
    {"run", (PyCFunction)search_run, METH_VARARGS,
     "run(slice, seconds left or -1): 0 running, 1 found, 2 exhausted, 3 max_states spent."},
    {"count_first_turns", (PyCFunction)search_count, METH_VARARGS,
     "count_first_turns(optimum, seconds left or -1, callback): the count, or None when the budget runs out."},
    {"line", (PyCFunction)search_line, METH_NOARGS, "The turn numbers from the start to the win."},
    {"found_position", (PyCFunction)search_found_position, METH_NOARGS, "The won position's bytes."},
    {"closed_counts", (PyCFunction)search_closed_counts, METH_NOARGS, "Positions first closed at each f."},
    {"stats", (PyCFunction)search_stats, METH_NOARGS, "The counters, as a dict."},
    {nullptr, nullptr, 0, nullptr},
};

// ---- the Prover type ----------------------------------------------------------------------
void prover_dealloc(ProverObject* self) {
    delete self->win;
    delete self->budget;
    Py_XDECREF(self->owner);
    PyObject_Free(self);
}

PyObject* prover_win_within(ProverObject* self, PyObject* args) {
    PyObject* pos;
    int turns;
    long long max_states;
    double seconds;
    if (!PyArg_ParseTuple(args, "SiLd", &pos, &turns, &max_states, &seconds)) return nullptr;
    Position p;
    if (!position_arg(self->owner, pos, p)) return nullptr;
    Budget& budget = *self->budget;
    budget.max_states = max_states;
    budget.expanded = 0;
    budget.deadline = seconds < 0 ? -1 : Budget::now() + seconds;
    int64_t generated = self->win->generated;
    return guarded([&]() -> PyObject* {
        PyObject* line;
        try {
            if (!(*self->win)(p, turns)) {
                line = Py_None;
                Py_INCREF(line);
            } else {
                line = PyList_New((Py_ssize_t)self->win->line.size());
                if (!line) return (PyObject*)nullptr;
                for (size_t k = 0; k < self->win->line.size(); ++k)
                    PyList_SET_ITEM(line, (Py_ssize_t)k, PyLong_FromLong(self->win->line[k]));
            }
        } catch (const OutOfBudget&) {
            return Py_BuildValue("(OLL)", Py_False, (long long)budget.expanded,
                                 (long long)(self->win->generated - generated));
        }
        return Py_BuildValue("(NLL)", line, (long long)budget.expanded,
                             (long long)(self->win->generated - generated));
    });
}

PyMethodDef prover_methods[] = {
    {"win_within", (PyCFunction)prover_win_within, METH_VARARGS,
     "win_within(position, turns, max_states or -1, seconds left or -1) -> (moves of a win or "
     "None, or False when the budget ran out; expanded; generated)."},
    {nullptr, nullptr, 0, nullptr},
};

PyTypeObject GameType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject ProverType = {PyVarObject_HEAD_INIT(nullptr, 0)};
PyTypeObject SearchType = {PyVarObject_HEAD_INIT(nullptr, 0)};

PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel",
                      "The compiled solo search kernel (see taolong_lab.solvers.kernel).", -1};

}  // namespace

PyMODINIT_FUNC PyInit__kernel(void) {
    GameType.tp_name = "taolong_lab.solvers._kernel.Game";
    GameType.tp_basicsize = sizeof(GameObject);
    GameType.tp_flags = Py_TPFLAGS_DEFAULT;
    GameType.tp_doc = "A solo challenge's rules and layout, as the kernel holds them.";
    GameType.tp_new = PyType_GenericNew;
    GameType.tp_init = (initproc)game_init;
    GameType.tp_dealloc = (destructor)game_dealloc;
    GameType.tp_methods = game_methods;
    SearchType.tp_name = "taolong_lab.solvers._kernel.Search";
    SearchType.tp_basicsize = sizeof(SearchObject);
    SearchType.tp_flags = Py_TPFLAGS_DEFAULT;
    SearchType.tp_doc = "An A* search of the kernel.";
    SearchType.tp_dealloc = (destructor)search_dealloc;
    SearchType.tp_methods = search_methods;
    ProverType.tp_name = "taolong_lab.solvers._kernel.Prover";
    ProverType.tp_basicsize = sizeof(ProverObject);
    ProverType.tp_flags = Py_TPFLAGS_DEFAULT;
    ProverType.tp_doc = "The explicit solver's bounded depth-first search, with its memory.";
    ProverType.tp_dealloc = (destructor)prover_dealloc;
    ProverType.tp_methods = prover_methods;
    if (PyType_Ready(&GameType) < 0 || PyType_Ready(&SearchType) < 0 || PyType_Ready(&ProverType) < 0)
        return nullptr;
    PyObject* m = PyModule_Create(&module);
    if (!m) return nullptr;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject*)&GameType) < 0 ||
        PyModule_AddIntConstant(m, "VERSION", KERNEL_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "SPEC_VERSION", SPEC_VERSION) < 0) {
        Py_DECREF(m);
        return nullptr;
    }
    return m;
}
