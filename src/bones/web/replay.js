// The replay viewer: a finished game move by move, every hand shown, each choice graded
// from the player's own view, the costliest mistakes listed and marked.

import { drawBoard } from "./board.js";
import { h } from "./dom.js";
import { expected, figure, moveText, playerName, spoken, t } from "./i18n.js";
import { tileSVG } from "./tiles.js";

const cost = (v) => figure(v, { decimals: 1 });

// A step button: on a phone only its arrow shows (its name stays for screen readers).
const step = (id, before, word, after, onclick) => h("button", { type: "button", id, onclick, "aria-label": word },
  before, h("span", { class: "word" }, word), after);

export class ReplayScreen {
  constructor(root, data) {
    this.root = root;
    this.at = 0;
    this.unavailable = null;
    this.keys = (event) => this.key(event);
    document.addEventListener("keydown", this.keys);
    this.resize = new ResizeObserver(() => this.drawBoard());
    this.graded(data);
  }

  // What the server said of the game; when the positions came first, the grades that
  // follow them (the same frame stays in view).
  graded(data) {
    this.data = data;
    this.grades = new Map(data.grades.map((g) => [`${g.round}:${g.index}`, g]));
    this.render();
  }

  // The grades could not be had (the graders are busy): say so, and go on without.
  ungraded(message) {
    this.unavailable = message;
    this.render();
  }

  close() {
    document.removeEventListener("keydown", this.keys);
    this.resize.disconnect();
  }

  name(seat) {
    const name = this.data.names?.[seat];
    if (!name) return t("seat", { n: seat + 1 });
    return name.startsWith("bot:") ? `${t("bot", { n: seat + 1 })} (${playerName(name)})` : playerName(name);
  }

  // The grade of the move that led to frame `at`, if it was a choice.
  gradeOf(at) {
    const frame = this.data.frames[at];
    return frame.index ? this.grades.get(`${frame.round}:${frame.index - 1}`) : undefined;
  }

  frameOf(grade) {
    return this.data.frames.findIndex((f) => f.round === grade.round && f.index === grade.index + 1);
  }

  go(at) {
    this.at = Math.max(0, Math.min(this.data.frames.length - 1, at));
    this.render();
  }

  key(event) {
    if (event.target.closest?.("input, select")) return;
    const moves = { ArrowRight: 1, ArrowLeft: -1, Home: -1e9, End: 1e9 };
    if (event.key in moves) {
      event.preventDefault();
      this.go(this.at + moves[event.key]);
    }
  }

  // The move that led to the frame, graded; on the last frame of a match given up, how.
  line(frame) {
    const said = this.moveLine(frame);
    const forfeit = this.data.forfeit;
    if (!forfeit || this.at !== this.data.frames.length - 1) return said;
    return `${said} · ${t(`forfeit.${forfeit.how}`, { name: this.name(forfeit.seat) })}`;
  }

  moveLine(frame) {
    const grade = this.gradeOf(this.at);
    if (!frame.last) return t("deal");
    const [seat, played] = frame.last;
    const move = moveText(played);
    if (!this.data.graded) return `${this.name(seat)}: ${move}`;
    if (!grade) return `${this.name(seat)}: ${move} · ${t("noChoice")}`;
    const values = { name: this.name(seat), move, value: expected(grade.value), best: moveText(grade.best),
                     bestValue: expected(grade.best_value), loss: cost(grade.loss) };
    return grade.loss > 0 ? t("graded", values) : t("gradedBest", values);
  }

  render() {
    const frame = this.data.frames[this.at];
    const inRound = this.data.frames.filter((f) => f.round === frame.round).length - 1;
    const grade = this.gradeOf(this.at);
    const marks = h("div", { class: "marks", "aria-hidden": "true" }, this.data.mistakes.map((g) => {
      const mark = h("span", { class: "mark" });
      mark.style.left = `${(100 * this.frameOf(g)) / (this.data.frames.length - 1)}%`;
      return mark;
    }));
    const level = t(`level.${this.data.grader}`);
    const grader = this.data.graded ? t("gradedBy", { level })
      : this.unavailable ? t("gradesUnavailable", { message: this.unavailable }) : t("grading", { level });
    const section = h("section", { class: "replay", id: "replay",
                                   dataset: { at: this.at, round: frame.round, index: frame.index, graded: this.data.graded } },
      h("header", { class: "replay-head" },
        h("h1", {}, `${t("replay")} · ${t(`variant.${this.data.rules.variant}`)}`),
        h("p", { class: `grader ${this.data.graded || this.unavailable ? "" : "pending"}`, id: "grader", "aria-live": "polite" }, grader)),
      h("div", { class: "replay-main" },
        h("div", { class: "board-wrap" }, document.createElementNS("http://www.w3.org/2000/svg", "svg")),
        h("div", { class: "replay-hands" }, frame.hands.map((hand, seat) => h("div", {
          class: `replay-hand ${frame.turn === seat ? "turn" : ""}`, dataset: { seat, hand: hand.join(" ") },
        }, h("span", { class: "name" }, this.name(seat)),
          h("span", { class: "tiles" }, hand.map((tile) => tileSVG(tile, { label: spoken(tile) }))))))),
      h("p", { id: "grade-line", class: `grade-line ${grade && grade.loss > 0 ? "costly" : ""}`, "aria-live": "polite" },
        this.line(frame)),
      h("div", { class: "replay-controls" },
        step("first", "« ", t("first"), "", () => this.go(0)),
        step("previous", "◀ ", t("previous"), "", () => this.go(this.at - 1)),
        h("span", { class: "where" }, t("moveOf", { r: frame.round + 1, i: frame.index, n: inRound })),
        step("next", "", t("next"), " ▶", () => this.go(this.at + 1)),
        step("last", "", t("last"), " »", () => this.go(1e9))),
      h("div", { class: "slider" },
        h("input", { type: "range", id: "slider", min: 0, max: this.data.frames.length - 1, value: this.at,
                     "aria-label": t("moveOf", { r: frame.round + 1, i: frame.index, n: inRound }),
                     oninput: (e) => this.go(Number(e.target.value)) }), marks),
      h("h2", {}, t("costliest")),
      h("ol", { class: "mistakes", id: "mistakes" }, this.data.mistakes.map((g) => h("li", {},
        h("button", { type: "button", class: `mistake ${this.frameOf(g) === this.at ? "here" : ""}`,
                      dataset: { frame: this.frameOf(g) }, onclick: () => this.go(this.frameOf(g)) },
          `${t("round", { n: g.round + 1 })} · ${this.name(g.seat)}: ${moveText(g.move)} → ${moveText(g.best)} (−${cost(g.loss)})`)))));
    this.root.replaceChildren(section);
    this.resize.disconnect();
    this.resize.observe(section.querySelector(".board-wrap"));
    this.drawBoard();
  }

  drawBoard() {
    const wrap = this.root.querySelector(".board-wrap");
    if (!wrap) return;
    const svg = wrap.querySelector("svg");
    svg.classList.add("board");
    const frame = this.data.frames[this.at];
    const last = frame.last && !["draw", "pass"].includes(frame.last[1]) ? frame.last[1].split(" ")[0] : null;
    drawBoard(svg, frame, wrap.clientWidth || 300, wrap.clientHeight || 200, { last, label: spoken });
  }
}
