"""Table rules shared by both games (docs/rules/table.md, TB-x.y): clocks, several people's seeds,
seat names. Pure: time enters as recorded milliseconds, never from a clock."""
