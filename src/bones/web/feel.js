// How the table feels: short sounds for your turn, a tile placed, a draw and a round's
// end (never before the player has touched the page, never when muted); a placed tile
// sliding in from the side of whoever played it (never when the system asks for less
// motion); the tab's title and a notification when your turn comes while you look away.

const MUTE = "bones.mute";

export const sounds = {
  played: [],  // what was played, for the page's own checks
  context: null,

  muted() { return localStorage.getItem(MUTE) === "1"; },
  setMuted(muted) { localStorage.setItem(MUTE, muted ? "1" : "0"); },

  // Browsers let a page make sound only after the player has touched it.
  unlock() {
    if (this.context) return;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (Context) this.context = new Context();
  },

  play(name) {
    if (!this.context || this.muted()) return;
    this.played.push(name);
    const notes = { turn: [660, 880], place: [220], draw: [440], end: [523, 659, 784] }[name];
    const start = this.context.currentTime;
    notes.forEach((frequency, i) => {
      const osc = this.context.createOscillator();
      const gain = this.context.createGain();
      osc.type = name === "place" ? "triangle" : "sine";
      osc.frequency.value = frequency;
      const at = start + i * 0.09;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.18, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + (name === "place" ? 0.09 : 0.16));
      osc.connect(gain).connect(this.context.destination);
      osc.start(at);
      osc.stop(at + 0.2);
    });
  },
};

for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => sounds.unlock(), { once: true, capture: true });
}

export const reducedMotion = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Slide a placed tile (an SVG group) in from where its player sits: dx, dy in board units.
export function slideIn(group, dx, dy) {
  if (!group || reducedMotion()) return;
  group.style.transformBox = "fill-box";
  group.animate([{ transform: `translate(${dx}px, ${dy}px) scale(.85)`, opacity: 0.4 },
    { transform: "none", opacity: 1 }], { duration: 320, easing: "cubic-bezier(.2,.8,.3,1)" });
}

// Your turn while the tab is hidden: the title says so, and a notification where the
// player allowed them.
export function tellTurn(myTurn, text, tag, begins = false) {
  const away = document.visibilityState === "hidden";
  document.title = myTurn && away ? `${text} · bones` : "bones";
  if (begins) notifyAway(text, tag);
}

// A browser notification, while the tab is hidden and the player allowed them.
export function notifyAway(text, tag) {
  if (document.visibilityState === "hidden" && "Notification" in window && Notification.permission === "granted") {
    new Notification("bones", { body: text, tag, silent: sounds.muted() });
  }
}
