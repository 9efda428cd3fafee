"""Initial placements: stack/deck membership applied in file order, as VASSAL applies it."""
from builder.vassal.commands import parse_commands
from builder.vassal.placement import initial_placements

ESC = "\x1b"


def _root(*cmds):
    return parse_commands(ESC.join(["begin_save", *cmds, "end_save"]))


def test_member_pieces_take_the_stack_position():
    root = _root("+/1/piece;;;;A/null;5;6;;0", "+/2/piece;;;;B/Main;0;0;;0", "+/9/stack/Main;100;69;1;2;@@1")
    p = initial_placements(root)
    assert (p["1"].map_id, p["1"].x, p["1"].y, p["1"].container, p["1"].index) == ("Main", 100, 69, "9", 0)
    assert (p["2"].index, p["9"].members) == (1, ("1", "2"))


def test_stack_before_its_pieces_gets_no_members():
    p = initial_placements(_root("+/9/stack/Main;100;69;1", "+/1/piece;;;;A/Other;5;6;;0"))
    assert p["9"].members == () and (p["1"].map_id, p["1"].x, p["1"].container) == ("Other", 5, None)


def test_null_map_stack_takes_pieces_off_the_map():
    p = initial_placements(_root("+/1/piece;;;;A/Main;172;53;;0", "+/9/stack/null;172;53;1"))
    assert (p["9"].map_id, p["9"].x, p["9"].y, p["9"].members) == (None, 0, 0, ("1",))
    assert (p["1"].map_id, p["1"].x, p["1"].y) == (None, 0, 0)


def test_a_piece_claimed_twice_ends_in_the_last_stack():
    p = initial_placements(_root("+/1/piece;;;;A/M;0;0;;0", "+/8/stack/M;1;1;1", "+/9/stack/M;2;2;1"))
    assert p["1"].container == "9" and p["8"].members == () and (p["1"].x, p["1"].y) == (2, 2)


def test_logged_adds_are_not_placed():
    p = initial_placements(parse_commands("begin_save\x1bend_save\x1bLOG\t+/1/piece;;;;A/M;0;0;;0"))
    assert p == {}
