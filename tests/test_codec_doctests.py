"""The usage examples in the codec's module docstrings stay true."""
import doctest

import pytest

import builder.vassal.commands
import builder.vassal.piece
import builder.vassal.placement
import builder.vassal.traits


@pytest.mark.parametrize("module", [builder.vassal.commands, builder.vassal.piece, builder.vassal.placement,
                                    builder.vassal.traits],
                         ids=lambda m: m.__name__)
def test_docstring_examples(module):
    result = doctest.testmod(module, verbose=False)
    assert result.attempted > 0 and result.failed == 0
