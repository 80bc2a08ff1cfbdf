// The registry of games the pages ask: gameUi(name) instead of comparing names. It imports
// nothing, so every page and every game module may import it without a circle; games.js fills it
// (the app imports games.js once, before any page draws).
const registered = [];

/** Add a game's module (games.js does, once per game, in the lobby's order). */
export const register = (game) => {
  if (registered.some((g) => g.name === game.name)) return;
  registered.push(game);
  // the game's own style sheet (`styles`, a URL in its folder), after the pages' own
  if (game.styles && typeof document !== "undefined" && document.head) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = game.styles;
    document.head.append(link);
  }
};

/** Every registered game, in the lobby's order (the first is the default). */
export const games = () => registered.slice();

/** The module of game `name` (undefined for a name no module registered). */
export const gameUi = (name) => registered.find((g) => g.name === name);
