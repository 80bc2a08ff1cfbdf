"""The one error a rule can raise."""

from __future__ import annotations


class RuleViolation(Exception):
    """A command broke a numbered rule (``PH-6.5``, ``MC-3.2``) or the deal's protocol.

    ``rule_id`` is what the API returns as ``rule`` in problem+json and what tests assert on.
    """

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"{rule_id}: {message}")
        self.rule_id = rule_id
        self.message = message

    def __reduce__(self):  # picklable across processes (simulate --workers)
        return (RuleViolation, (self.rule_id, self.message))
