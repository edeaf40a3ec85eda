"""An independent DRAT proof checker for the tests (forward checking).

It shares no code with csp_sudoku or python-sat: it reads DIMACS and DRAT text
and checks every lemma by reverse unit propagation (RUP), falling back to
the RAT property on the lemma's first literal, then requires the empty
clause. Deletion lines are read but not applied: solvers delete clauses that
are satisfied at the top level, including the reasons of top-level units
(drat-trim ignores those deletions too), and checking against a superset of
clauses that all follow from the formula is sound. Slow but simple; good for
the few hundred lemmas a Sudoku uniqueness proof has.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path


def read_dimacs(path: Path) -> list[list[int]]:
    """The clauses of a DIMACS CNF file."""
    clauses: list[list[int]] = []
    current: list[int] = []
    for line in path.read_text().splitlines():
        s = line.strip()
        if not s or s[0] in "cp%":
            continue
        for tok in s.split():
            lit = int(tok)
            if lit == 0:
                clauses.append(current)
                current = []
            else:
                current.append(lit)
    return clauses


class _Db:
    def __init__(self, clauses: list[list[int]]) -> None:
        self.clauses: dict[int, tuple[int, ...]] = {}
        self.occ: dict[int, set[int]] = defaultdict(set)
        self.next_id = 0
        for c in clauses:
            self.add(c)

    def add(self, clause: list[int]) -> None:
        cid = self.next_id
        self.next_id += 1
        lits = tuple(dict.fromkeys(clause))
        self.clauses[cid] = lits
        for lit in lits:
            self.occ[lit].add(cid)

    def propagates_to_conflict(self, assumed: list[int]) -> bool:
        """True when unit propagation from the DB plus ``assumed`` reaches a conflict."""
        value: dict[int, bool] = {}
        queue: list[int] = []

        def assign(lit: int) -> bool:
            var, pos = abs(lit), lit > 0
            if var in value:
                return value[var] == pos
            value[var] = pos
            queue.append(lit)
            return True

        for lit in assumed:
            if not assign(lit):
                return True
        for lits in self.clauses.values():
            if not lits:
                return True
            if len(lits) == 1 and not assign(lits[0]):
                return True
        head = 0
        while head < len(queue):
            false_lit = -queue[head]
            head += 1
            for cid in list(self.occ.get(false_lit, ())):
                unassigned = None
                count = 0
                satisfied = False
                for lit in self.clauses[cid]:
                    v = value.get(abs(lit))
                    if v is None:
                        count += 1
                        unassigned = lit
                        if count > 1:
                            break
                    elif v == (lit > 0):
                        satisfied = True
                        break
                if satisfied or count > 1:
                    continue
                if count == 0:
                    return True
                assert unassigned is not None
                assign(unassigned)
        return False

    def implied(self, lemma: list[int]) -> bool:
        """RUP, else RAT on the first literal."""
        if self.propagates_to_conflict([-lit for lit in lemma]):
            return True
        if not lemma:
            return False
        pivot = lemma[0]
        for cid in list(self.occ.get(-pivot, ())):
            resolvent = lemma + [lit for lit in self.clauses[cid] if lit != -pivot]
            if any(-lit in resolvent for lit in resolvent):
                continue  # a tautology needs no check
            if not self.propagates_to_conflict([-lit for lit in resolvent]):
                return False
        return True


def check_drat(cnf_path: Path, proof_path: Path) -> bool:
    """True when the proof derives the empty clause from the formula, every step checked."""
    db = _Db(read_dimacs(cnf_path))
    for raw in proof_path.read_text().splitlines():
        toks = raw.split()
        if not toks:
            continue
        deletion = toks[0] == "d"
        lits = [int(t) for t in toks[1 if deletion else 0 :]]
        if not lits or lits[-1] != 0:
            return False  # every line ends with 0
        clause = lits[:-1]
        if deletion:
            continue
        if not db.implied(clause):
            return False
        if not clause:
            return True
        db.add(clause)
    return db.propagates_to_conflict([])
