"""The problems one ``validate`` run finds, by file: each file numbered in the order it is
checked, each rule's problems past ``PER_RULE_CAP`` in a file counted in one closing line."""

from __future__ import annotations

from sitemapkit.protocol import rule_entry
from sitemapkit.report import Problem

PER_RULE_CAP = 100
"""Problems of one rule shown per file; the rest are counted in one closing line."""


class Findings:
    """The problems found so far and the files they are in (``files[number]``)."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []
        self.files: list[str] = []
        self._counts: dict[tuple[str, str], int] = {}
        self._hidden: dict[tuple[str, str], dict[str, int]] = {}
        """Problems past ``PER_RULE_CAP``, counted by severity for the closing line."""
        self.counts: dict[str, int] = {}
        """Every problem found, shown or not, by severity: what totals count (a closing line
        is no problem of its own)."""
        self._closing: set[int] = set()
        """The closing lines (by ``id``): each comes last among its file's problems."""

    def file_number(self, file: str) -> int:
        """Number ``file`` (the next one checked); problems and listed URLs refer to it so."""
        self.files.append(file)
        return len(self.files) - 1

    def add(self, file: str, line: int | None, rule: str, message: str,
            severity: str | None = None) -> None:
        """A problem of ``rule`` (a ``protocol.RULES`` id: any other raises ``KeyError``)."""
        severity = severity or rule_entry(rule).severity  # an unknown rule fails here
        self.counts[severity] = self.counts.get(severity, 0) + 1
        key = (file, rule)
        count = self._counts.get(key, 0) + 1
        self._counts[key] = count
        if count <= PER_RULE_CAP:
            self.problems.append(Problem(file, rule, message, severity, line=line))
        else:
            rule_entry(rule)  # a severity given: the rule is checked all the same
            hidden = self._hidden.setdefault(key, {})
            hidden[severity] = hidden.get(severity, 0) + 1

    def close_file(self, file: str) -> None:
        """One closing line per rule and severity for the problems past the cap: the line
        stands for them, so it has their severity (150 warnings never make an error)."""
        for (name, rule), hidden in list(self._hidden.items()):
            if name != file:
                continue
            del self._hidden[(name, rule)]
            for severity, count in sorted(hidden.items()):
                closing = Problem(file, rule, f"{count} more {severity}{'s' * (count != 1)} of this rule in this "
                                  "file not shown", severity)
                self._closing.add(id(closing))
                self.problems.append(closing)

    def in_file_order(self) -> list[Problem]:
        """The problems by file (in the order the files were checked), then line; each file's
        closing lines last."""
        order = {name: n for n, name in enumerate(self.files)}
        return sorted(self.problems, key=lambda p: (order.get(p.where, len(order)), id(p) in self._closing,
                                                    p.line or 0))
