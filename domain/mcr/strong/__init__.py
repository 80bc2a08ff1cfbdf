"""The ``strong`` MCR bot: determinised expected-value search over one seat view."""

from domain.mcr.strong.bot import DEFAULT, OptionValue, Params, StrongBot, option_values

__all__ = ["DEFAULT", "OptionValue", "Params", "StrongBot", "option_values"]
