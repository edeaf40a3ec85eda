-- The schema of a puzzle bank as the version before the bank had its indexes wrote it
-- (`git show e6ce7ad:csp_sudoku/tools/bank.py`, its _SCHEMA), with its meta row and
-- application_id: tests/test_bank_scale.py opens such a bank to see it upgraded.
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS puzzles (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    geometry TEXT NOT NULL,
    regions TEXT,
    puzzle TEXT NOT NULL,
    solution TEXT NOT NULL,
    clues INTEGER NOT NULL,
    minimal INTEGER,
    generator TEXT,
    seed INTEGER,
    added REAL NOT NULL,
    method TEXT,
    derived_from TEXT,
    generator_version TEXT
);
CREATE TABLE IF NOT EXISTS symmetries (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    PRIMARY KEY (puzzle_id, name)
);
CREATE TABLE IF NOT EXISTS ratings (
    id INTEGER PRIMARY KEY,
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    metric TEXT NOT NULL,
    score REAL NOT NULL,
    level TEXT,
    level_rank INTEGER,
    parameters TEXT NOT NULL,
    runs INTEGER,
    seed INTEGER,
    version TEXT,
    rated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS exports (
    puzzle_id INTEGER NOT NULL REFERENCES puzzles(id) ON DELETE CASCADE,
    batch TEXT NOT NULL,
    exported REAL NOT NULL,
    PRIMARY KEY (puzzle_id, batch)
);
CREATE INDEX IF NOT EXISTS ratings_by_metric ON ratings(metric, level, score);
CREATE INDEX IF NOT EXISTS puzzles_by_clues ON puzzles(clues);
INSERT INTO meta VALUES ('schema', '2');
PRAGMA application_id = 1129533506;
