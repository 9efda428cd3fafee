"""Game data: loading YAML with source positions, schema and cross-reference validation, the game model."""
