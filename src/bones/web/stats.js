// A display name's statistics (a table and a chart) and its finished games.

import { me } from "./account.js";
import { chart, h, pageLink } from "./dom.js";
import { figure, moment, playerName, t } from "./i18n.js";
import { api } from "./net.js";
import { challengeDialog } from "./challenges.js";
import { relationButton, reportDialog } from "./moderation.js";
import { historyChart, ratingsTable } from "./ratings.js";

const percent = (row) => (row.games ? Math.round((100 * row.wins) / row.games) : 0);

function statsTable(stats) {
  const rows = [[t("total"), stats.total, "total"], [t("byVariant")],
    ...Object.entries(stats.by_variant).map(([v, row]) => [t(`variant.${v}`), row, `variant-${v}`]),
    [t("byLevel")],
    ...Object.entries(stats.by_level).map(([l, row]) => [t(`level.${l}`), row, `level-${l}`])];
  return h("table", { class: "stats-table", id: "stats-table" },
    h("thead", {}, h("tr", {}, h("th", {}), ["colGames", "colWins", "colLosses", "colRate", "colPoints"]
      .map((k) => h("th", {}, t(k))))),
    h("tbody", {}, rows.map(([label, row, key]) => (!row
      ? h("tr", { class: "group" }, h("th", { colspan: 6 }, label))
      : h("tr", { dataset: { row: key } },
      h("th", {}, label), h("td", {}, String(row.games)), h("td", {}, String(row.wins)),
      h("td", {}, String(row.losses)), h("td", {}, `${percent(row)}%`), h("td", {}, figure(row.points)))))));
}

// Horizontal bars: the win rate per game and per opponents' level.
function winRates(stats) {
  const bars = [...Object.entries(stats.by_variant).map(([v, row]) => [t(`variant.${v}`), row]),
    ...Object.entries(stats.by_level).map(([l, row]) => [t(`level.${l}`), row])];
  const { svg, add } = chart(26 * bars.length + 30, t("winRateChart"));
  bars.forEach(([label, row], i) => {
    const y = 26 + i * 26;
    add("text", { x: 2, y: y + 14, class: "chart-label" }, label);
    add("rect", { x: 130, y, width: 190, height: 18, class: "chart-track" });
    add("rect", { x: 130, y, width: (190 * percent(row)) / 100, height: 18, class: "chart-bar" });
    add("text", { x: 399, y: y + 14, class: "chart-value", "text-anchor": "end" },
      `${percent(row)}% (${row.games})`);
  });
  return svg;
}

export async function statsScreen(root, name, go, openUpload) {
  const [stats, games, profile, tournaments] = await Promise.all([
    api(`/api/stats/${encodeURIComponent(name)}`),
    api(`/api/games?name=${encodeURIComponent(name)}`),
    api(`/api/profile/${encodeURIComponent(name)}`).catch(() => null),
    api(`/api/tournaments?player=${encodeURIComponent(name)}`).catch(() => []),
  ]);
  const rated = profile?.ratings.length ? [h("h2", {}, t("ratings")), ratingsTable(profile.ratings),
    historyChart(profile.history)] : null;
  const upload = h("input", { type: "file", accept: ".json,application/json", id: "record-file",
    onchange: async (event) => {
      const file = event.target.files[0];
      if (file) openUpload(JSON.parse(await file.text()));
    } });
  root.replaceChildren(h("section", { class: "stats", id: "stats" },
    h("h1", {}, t("statsFor", { name }), profile?.bot ? h("small", { class: "badge" }, t("botAccount")) : null),
    profile?.playing.length ? h("p", { class: "playing-now", id: "playing-now" }, t("profilePlaying"), " ",
      profile.playing.map((table) => pageLink(`/t/${table}`, t("watch"), go, { class: "button" }))) : null,
    profile && me() && me().name.toLowerCase() !== name.toLowerCase()  // others report, block
      ? h("div", { class: "actions-row" },
        await relationButton("/api/follows", name, ["follow.follow", "follow.unfollow"], "follow-player"),
        await relationButton("/api/blocks", name, ["block.block", "block.unblock"], "block-player"),
        h("button", { type: "button", id: "challenge-player", onclick: () => challengeDialog(name, go) },
          t("challenge.button")),
        h("button", { type: "button", id: "report-player", onclick: () => reportDialog(name) }, t("report"))) : null,
    rated,
    stats.total.games ? [statsTable(stats), winRates(stats)] : h("p", {}, t("noGames")),
    tournaments.length ? [h("h2", {}, t("tournaments")), h("ul", { class: "game-list", id: "player-tournaments" },
      tournaments.map((x) => h("li", {}, `${moment(x.starts)} · `,
        pageLink(`/tournament/${x.id}`, x.name, go),
        ` · ${t(`tournament.${x.state}`)}`)))] : null,
    h("h2", {}, t("pastGames")),
    h("ul", { class: "game-list" }, games.map((g) => h("li", {},
      h("span", {}, `${moment(g.finished)} · ${t(`variant.${g.variant}`)} · `),
      h("span", {}, g.names.map(playerName).join(", ")),
      h("b", {}, ` ${g.scores.join(" : ")}`),
      " ",
      pageLink(`/replay/${g.id}`, t("replay"), go, { class: "replay-link" })))),
    h("label", { class: "upload" }, t("openRecord"), upload)));
}
