"""Which phases the movement-allowance rule judges comes from the data's phase kind."""

from builder.audit.rules.movement import is_movement_phase


def test_phase_kind_decides_over_the_name():
    assert is_movement_phase({"id": "ops", "name": "Operations", "kind": "movement"})
    assert not is_movement_phase({"id": "strat-move", "name": "Strategic Movement", "kind": "strategic-movement"})
    assert not is_movement_phase({"id": "move", "name": "Movement", "kind": "combat"})


def test_names_decide_without_a_kind():
    assert is_movement_phase({"id": "move", "name": "Movement"})
    assert not is_movement_phase({"id": "strategic-movement", "name": "Strategic Movement"})
    assert not is_movement_phase({"id": "combat", "name": "Combat"})
