// The games the client knows: one line per game, its module under games/ (what the pages need of
// that game: its model of a seat view, its pieces, the centre of its table, its result sheet, its
// coach, its rules page). Pages ask gameUi(name) instead of comparing names; a new game is one
// module, its import here and its entry in the list.
import paohuzi from "./games/paohuzi.js";
import mcr from "./games/mcr.js";

// read when asked, never while the modules load (the game modules import pages that import this)
const registered = () => [paohuzi, mcr];

/** Every registered game, in the lobby's order (the first is the default). */
export const games = () => registered();

/** The module of game `name` (undefined for a name no module registered). */
export const gameUi = (name) => registered().find((g) => g.name === name);
