// The games the client knows: one line per game, its module under games/ (what the pages need of
// that game: its model of a seat view, its pieces, the centre of its table, its result sheet, its
// coach, its rules page), registered in registry.js, which the pages ask. A new game is one
// module, its import here and its register line.
import { register } from "./registry.js";
import paohuzi from "./games/paohuzi/index.js";
import mcr from "./games/mcr/index.js";

register(paohuzi);
register(mcr);
