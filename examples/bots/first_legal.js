#!/usr/bin/env node
// A dealstream bot (docs/bots.md): takes a win, never claims, else plays the last legal action.
const readline = require("node:readline");

function choose(view) {
  const actions = view.legal_actions;
  const win = actions.find((a) => a.type === "Win" || a.type === "DeclareWin" || a.claim === "win");
  if (win) return win; // a win, whenever the rules offer one
  const pass = actions.find((a) => a.type === "Pass");
  if (pass) return pass; // no claim: pass the window
  return actions[actions.length - 1]; // else the last one offered (a discard: the last tile)
}

// one JSON line per decision in, one command out
const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  process.stdout.write(JSON.stringify(choose(message.view)) + "\n");
});
