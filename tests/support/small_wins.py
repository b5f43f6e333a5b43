"""Small solo positions whose optimum is worked out by hand, shared by the solver, graph,
certificate and CLI tests. Not a test module."""

from __future__ import annotations

# The player (white) faces south at d3, the black head is right ahead at d4; black has one
# segment and one water. Sowing the lone W stone on Earth lands on Mountain: no black stone is
# sown, so the opponent does nothing; Mountain with a vertical facing is a stay, and the stay
# bites d4 for 1 damage: black's last segment is lost. The start is not won, so the optimum is
# 1 -- worked out by hand.
WIN_IN_1 = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"
)
# Black has 1 segment and 3 water at e7, white's head at b3. No turn wins at once (every
# successor is checked in the test), and Water->Fire then Lake->Fire with an expel wins in 2
# (replayed): the optimum is 2 -- worked out by hand with the engine's turn list.
WIN_IN_2 = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "b3-a3-a2-a1:4:0 e7-e8:3:0 WW/-/BW/-/-/-/WBBB/- 1:8 w 3"
)
WIN_IN_2_LINE = ("Wa>Fi (He:e6 La:d6 Fi:c6x) c3+", "La>Fi (Fi:c5x) c4x")
