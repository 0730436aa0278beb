
SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

CREATE TABLE public.events (
    id integer NOT NULL,
    table_id character varying(32) NOT NULL,
    seq integer NOT NULL,
    kind character varying(8) NOT NULL,
    seat integer,
    data json NOT NULL,
    at timestamp with time zone NOT NULL
);

CREATE SEQUENCE public.events_id_seq
    AS integer
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;

ALTER SEQUENCE public.events_id_seq OWNED BY public.events.id;

CREATE TABLE public.games (
    table_id character varying(32) NOT NULL,
    variant character varying(16) NOT NULL,
    finished timestamp with time zone NOT NULL,
    names json NOT NULL,
    sides json NOT NULL,
    scores json NOT NULL,
    winner integer,
    loser integer,
    record json NOT NULL
);

CREATE TABLE public.plays (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    name_key character varying(64) NOT NULL,
    finished timestamp with time zone NOT NULL
);

CREATE TABLE public.seats (
    table_id character varying(32) NOT NULL,
    seat integer NOT NULL,
    kind character varying(8) NOT NULL,
    level character varying(16),
    name character varying(64),
    token_hash character varying(64)
);

CREATE TABLE public.tables (
    id character varying(32) NOT NULL,
    created timestamp with time zone NOT NULL,
    config json NOT NULL,
    finished timestamp with time zone
);

CREATE TABLE public.totals (
    name_key character varying(64) NOT NULL,
    "grouping" character varying(8) NOT NULL,
    "group" character varying(16) NOT NULL,
    games integer NOT NULL,
    wins integer NOT NULL,
    losses integer NOT NULL,
    points integer NOT NULL
);

ALTER TABLE ONLY public.events ALTER COLUMN id SET DEFAULT nextval('public.events_id_seq'::regclass);

INSERT INTO public.events VALUES (1, 'g1', 0, 'deal', NULL, '{"hands": [["4-4", "4-3", "3-2", "3-1", "3-0", "2-0", "0-0"], ["6-5", "6-4", "5-0", "4-1", "4-0", "3-3", "1-1"]], "boneyard": ["6-3", "6-6", "5-4", "4-2", "6-2", "6-0", "5-2", "6-1", "2-2", "5-5", "5-3", "1-0", "2-1", "5-1"]}', '2026-12-02 02:17:30.704022+00');
INSERT INTO public.events VALUES (2, 'g1', 1, 'move', 1, '{"move": "4-0 left"}', '2026-12-02 02:17:30.704031+00');
INSERT INTO public.events VALUES (3, 'g1', 2, 'move', 0, '{"move": "2-0 left"}', '2026-12-02 02:17:30.704032+00');
INSERT INTO public.events VALUES (4, 'g1', 3, 'move', 1, '{"move": "4-1 right"}', '2026-12-02 02:17:30.704032+00');
INSERT INTO public.events VALUES (5, 'g1', 4, 'move', 0, '{"move": "3-2 left"}', '2026-12-02 02:17:30.704034+00');
INSERT INTO public.events VALUES (6, 'g1', 5, 'move', 1, '{"move": "3-3 left"}', '2026-12-02 02:17:30.704034+00');
INSERT INTO public.events VALUES (7, 'g1', 6, 'move', 0, '{"move": "4-3 left"}', '2026-12-02 02:17:30.704036+00');
INSERT INTO public.events VALUES (8, 'g1', 7, 'move', 1, '{"move": "1-1 right"}', '2026-12-02 02:17:30.704037+00');
INSERT INTO public.events VALUES (9, 'g1', 8, 'move', 0, '{"move": "3-1 right"}', '2026-12-02 02:17:30.704039+00');
INSERT INTO public.events VALUES (10, 'g1', 9, 'move', 1, '{"move": "6-4 left"}', '2026-12-02 02:17:30.70404+00');
INSERT INTO public.events VALUES (11, 'g1', 10, 'move', 0, '{"move": "3-0 right"}', '2026-12-02 02:17:30.70404+00');
INSERT INTO public.events VALUES (12, 'g1', 11, 'move', 1, '{"move": "6-5 left"}', '2026-12-02 02:17:30.704041+00');
INSERT INTO public.events VALUES (13, 'g1', 12, 'move', 0, '{"move": "0-0 right"}', '2026-12-02 02:17:30.704052+00');
INSERT INTO public.events VALUES (14, 'g2', 0, 'deal', NULL, '{"hands": [["5-5", "5-4", "5-0", "2-1", "2-0", "1-1", "0-0"], ["5-2", "4-4", "4-3", "4-2", "4-0", "3-2", "3-1"]], "boneyard": []}', '2026-12-02 02:17:30.732777+00');
INSERT INTO public.events VALUES (15, 'g2', 1, 'move', 1, '{"move": "5-2 right"}', '2026-12-02 02:17:30.732783+00');
INSERT INTO public.events VALUES (16, 'g2', 2, 'move', 0, '{"move": "5-4 left"}', '2026-12-02 02:17:30.732784+00');
INSERT INTO public.events VALUES (17, 'g2', 3, 'move', 1, '{"move": "4-3 left"}', '2026-12-02 02:17:30.732785+00');
INSERT INTO public.events VALUES (18, 'g2', 4, 'move', 0, '{"move": "2-1 right"}', '2026-12-02 02:17:30.732786+00');
INSERT INTO public.events VALUES (19, 'g2', 5, 'move', 1, '{"move": "3-1 right"}', '2026-12-02 02:17:30.732786+00');
INSERT INTO public.events VALUES (20, 'g2', 6, 'move', 0, '{"move": "pass"}', '2026-12-02 02:17:30.732787+00');
INSERT INTO public.events VALUES (21, 'g2', 7, 'move', 1, '{"move": "3-2 right"}', '2026-12-02 02:17:30.732788+00');
INSERT INTO public.events VALUES (22, 'g2', 8, 'move', 0, '{"move": "2-0 right"}', '2026-12-02 02:17:30.732788+00');
INSERT INTO public.events VALUES (23, 'g2', 9, 'move', 1, '{"move": "4-0 right"}', '2026-12-02 02:17:30.732789+00');
INSERT INTO public.events VALUES (24, 'g2', 10, 'move', 0, '{"move": "pass"}', '2026-12-02 02:17:30.73279+00');
INSERT INTO public.events VALUES (25, 'g2', 11, 'move', 1, '{"move": "4-4 right"}', '2026-12-02 02:17:30.732791+00');
INSERT INTO public.events VALUES (26, 'g2', 12, 'move', 0, '{"move": "pass"}', '2026-12-02 02:17:30.732792+00');
INSERT INTO public.events VALUES (27, 'g2', 13, 'move', 1, '{"move": "4-2 right"}', '2026-12-02 02:17:30.732793+00');
INSERT INTO public.events VALUES (28, 'g3', 0, 'deal', NULL, '{"hands": [["6-6", "6-1", "5-3", "5-1", "5-0", "2-1", "1-0"], ["6-0", "5-4", "5-2", "4-4", "4-3", "3-1", "2-2"]], "boneyard": ["3-0", "6-4", "6-3", "0-0", "4-2", "4-0", "4-1", "1-1", "5-5", "6-5", "6-2", "3-2", "2-0", "3-3"]}', '2026-12-02 02:17:30.761432+00');
INSERT INTO public.events VALUES (29, 'g3', 1, 'move', 1, '{"move": "6-0 right"}', '2026-12-02 02:17:30.76144+00');
INSERT INTO public.events VALUES (30, 'g3', 2, 'move', 0, '{"move": "6-1 left"}', '2026-12-02 02:17:30.761441+00');
INSERT INTO public.events VALUES (31, 'g3', 3, 'move', 1, '{"move": "3-1 left"}', '2026-12-02 02:17:30.761442+00');
INSERT INTO public.events VALUES (32, 'g3', 4, 'move', 0, '{"move": "5-3 left"}', '2026-12-02 02:17:30.761443+00');
INSERT INTO public.events VALUES (33, 'g3', 5, 'move', 1, '{"move": "5-4 left"}', '2026-12-02 02:17:30.761444+00');
INSERT INTO public.events VALUES (34, 'g3', 6, 'move', 0, '{"move": "1-0 right"}', '2026-12-02 02:17:30.761445+00');
INSERT INTO public.events VALUES (35, 'g3', 7, 'move', 1, '{"move": "4-3 left"}', '2026-12-02 02:17:30.761446+00');
INSERT INTO public.events VALUES (36, 'g3', 8, 'move', 0, '{"move": "5-1 right"}', '2026-12-02 02:17:30.761446+00');
INSERT INTO public.events VALUES (37, 'g3', 9, 'move', 1, '{"move": "5-2 right"}', '2026-12-02 02:17:30.761447+00');
INSERT INTO public.events VALUES (38, 'g3', 10, 'move', 0, '{"move": "2-1 right"}', '2026-12-02 02:17:30.761448+00');
INSERT INTO public.events VALUES (39, 'g3', 11, 'move', 1, '{"move": "draw"}', '2026-12-02 02:17:30.761449+00');
INSERT INTO public.events VALUES (40, 'g3', 12, 'move', 1, '{"move": "3-0 left"}', '2026-12-02 02:17:30.76145+00');
INSERT INTO public.events VALUES (41, 'g3', 13, 'move', 0, '{"move": "5-0 left"}', '2026-12-02 02:17:30.761451+00');
INSERT INTO public.events VALUES (42, 'o1', 0, 'deal', NULL, '{"hands": [["6-4", "5-5", "5-3", "4-0", "3-3", "1-1", "1-0"], ["6-3", "4-3", "4-1", "3-1", "2-2", "2-0", "0-0"], ["6-6", "6-0", "5-2", "5-1", "5-0", "4-2", "3-0"], ["6-5", "6-2", "6-1", "5-4", "4-4", "3-2", "2-1"]], "boneyard": []}', '2026-12-02 02:17:30.780846+00');
INSERT INTO public.events VALUES (43, 'o1', 1, 'move', 1, '{"move": "3-1 left"}', '2026-12-02 02:17:30.780852+00');
INSERT INTO public.events VALUES (44, 'o1', 2, 'move', 2, '{"move": "5-1 right"}', '2026-12-02 02:17:30.780853+00');
INSERT INTO public.events VALUES (45, 'o1', 3, 'move', 3, '{"move": "3-2 left"}', '2026-12-02 02:17:30.780854+00');
INSERT INTO public.events VALUES (46, 'o1', 4, 'move', 0, '{"move": "5-5 right"}', '2026-12-02 02:17:30.780854+00');
INSERT INTO public.events VALUES (47, 'o1', 5, 'move', 1, '{"move": "2-2 left"}', '2026-12-02 02:17:30.780855+00');
INSERT INTO public.events VALUES (48, 'o1', 6, 'move', 2, '{"move": "4-2 left"}', '2026-12-02 02:17:30.780856+00');
INSERT INTO public.events VALUES (49, 'o1', 7, 'move', 3, '{"move": "5-4 right"}', '2026-12-02 02:17:30.780857+00');
INSERT INTO public.events VALUES (50, 'o1', 8, 'move', 0, '{"move": "4-0 right"}', '2026-12-02 02:17:30.780858+00');
INSERT INTO public.events VALUES (51, 'o1', 9, 'move', 1, '{"move": "2-0 right"}', '2026-12-02 02:17:30.780858+00');

INSERT INTO public.games VALUES ('g1', 'draw', '2026-12-02 02:17:30.712786+00', '["Ann", "bot:easy"]', '[0, 1]', '[5, 0]', 0, NULL, '{"format": "bones-record", "version": 1, "rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["4-4", "4-3", "3-2", "3-1", "3-0", "2-0", "0-0"], ["6-5", "6-4", "5-0", "4-1", "4-0", "3-3", "1-1"]], "boneyard": ["6-3", "6-6", "5-4", "4-2", "6-2", "6-0", "5-2", "6-1", "2-2", "5-5", "5-3", "1-0", "2-1", "5-1"]}], "moves": ["4-0 left", "2-0 left", "4-1 right", "3-2 left", "3-3 left", "4-3 left", "1-1 right", "3-1 right", "6-4 left", "3-0 right", "6-5 left", "0-0 right"], "results": [{"lead": {"seat": 0, "tile": "4-4", "automatic": true}, "move_count": 12, "winner": 0, "reason": "domino", "points": [5, 0], "eggs": 0, "ended_by": 0, "count_points": [0, 0], "scores_after": [5, 0]}], "scores": [5, 0], "eggs": 0, "is_over": true, "winner": 0, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "78d146d70539d89cb2f21d31f1bfb49e64e544c3f749eec974cb236ccea526db", "salt": "1c4cbd6c78c0b874035b667557b87219", "seed": "7831c3ec66511e5e46019aba43d8fa898d16b3ba7012dd03a7179698dff772b9"}, "assists": []}');
INSERT INTO public.games VALUES ('g2', 'block', '2026-12-02 02:17:30.736533+00', '["ann", "Bob"]', '[0, 1]', '[0, 7]', 1, NULL, '{"format": "bones-record", "version": 1, "rules": {"variant": "block", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["5-5", "5-4", "5-0", "2-1", "2-0", "1-1", "0-0"], ["5-2", "4-4", "4-3", "4-2", "4-0", "3-2", "3-1"]], "boneyard": []}], "moves": ["5-2 right", "5-4 left", "4-3 left", "2-1 right", "3-1 right", "pass", "3-2 right", "2-0 right", "4-0 right", "pass", "4-4 right", "pass", "4-2 right"], "results": [{"lead": {"seat": 0, "tile": "5-5", "automatic": true}, "move_count": 13, "winner": 1, "reason": "domino", "points": [0, 7], "eggs": 0, "ended_by": 1, "count_points": [0, 0], "scores_after": [0, 7]}], "scores": [0, 7], "eggs": 0, "is_over": true, "winner": 1, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "4b1ccef3f6699c5159277379519d8dc45b511f05a481e029b98c93348c6a50c5", "salt": "1a535f19d27ce2c58bb992d6a872e3d3", "seed": "55ddebd5f35a819087ff4e4bba534dde5e6666ed87cc2111e9232e2110450435"}, "assists": []}');
INSERT INTO public.games VALUES ('g3', 'allfives', '2026-12-02 02:17:30.769184+00', '["Bob", "bot:hard"]', '[0, 1]', '[20, 5]', 0, NULL, '{"format": "bones-record", "version": 1, "rules": {"variant": "allfives", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["6-6", "6-1", "5-3", "5-1", "5-0", "2-1", "1-0"], ["6-0", "5-4", "5-2", "4-4", "4-3", "3-1", "2-2"]], "boneyard": ["3-0", "6-4", "6-3", "0-0", "4-2", "4-0", "4-1", "1-1", "5-5", "6-5", "6-2", "3-2", "2-0", "3-3"]}], "moves": ["6-0 right", "6-1 left", "3-1 left", "5-3 left", "5-4 left", "1-0 right", "4-3 left", "5-1 right", "5-2 right", "2-1 right", "draw", "3-0 left", "5-0 left"], "results": [{"lead": {"seat": 0, "tile": "6-6", "automatic": true}, "move_count": 13, "winner": 0, "reason": "domino", "points": [10, 0], "eggs": 0, "ended_by": 0, "count_points": [10, 5], "scores_after": [20, 5]}], "scores": [20, 5], "eggs": 0, "is_over": true, "winner": 0, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "85af32a2a76b000ee1d66522b748e9e24f241b55db7ddc9693a0a78269dc82e5", "salt": "2175e6e5036ef3edd536854a342dbbe2", "seed": "892a0aa1e9fa9025010256825021823b1fb459ce0c59183d636eb6d2eeb628a2"}, "assists": []}');

INSERT INTO public.plays VALUES ('g1', 0, 'ann', '2026-12-02 02:17:30.712786+00');
INSERT INTO public.plays VALUES ('g2', 0, 'ann', '2026-12-02 02:17:30.736533+00');
INSERT INTO public.plays VALUES ('g2', 1, 'bob', '2026-12-02 02:17:30.736533+00');
INSERT INTO public.plays VALUES ('g3', 0, 'bob', '2026-12-02 02:17:30.769184+00');

INSERT INTO public.seats VALUES ('g1', 0, 'human', NULL, 'Ann', 'f55ff16f66f43360266b95db6f8fec01d76031054306ae4a4b380598f6cfd114');
INSERT INTO public.seats VALUES ('g1', 1, 'bot', 'easy', NULL, NULL);
INSERT INTO public.seats VALUES ('g2', 0, 'human', NULL, 'ann', '2c3a4249d77070058649dbd822dcaf7957586fce428cfb2ca88b94741eda8b07');
INSERT INTO public.seats VALUES ('g2', 1, 'human', NULL, 'Bob', '4814d92093ac8a0f4a2163ab87dee509ba306a58f5888be0edcb2fcd0712028b');
INSERT INTO public.seats VALUES ('g3', 0, 'human', NULL, 'Bob', '76a8277347f52530e1cf979175a178980b3a180d176165c985d85f7e142f1eed');
INSERT INTO public.seats VALUES ('g3', 1, 'bot', 'hard', NULL, NULL);
INSERT INTO public.seats VALUES ('o1', 0, 'human', NULL, 'Cleo', 'd0f631ca1ddba8db3bcfcb9e057cdc98d0379f1bee00e75a545147a27dadd982');
INSERT INTO public.seats VALUES ('o1', 1, 'bot', 'medium', NULL, NULL);
INSERT INTO public.seats VALUES ('o1', 2, 'bot', 'easy', NULL, NULL);
INSERT INTO public.seats VALUES ('o1', 3, 'bot', 'medium', NULL, NULL);
INSERT INTO public.seats VALUES ('w1', 0, 'human', NULL, 'Dan', '60c5590f72eef292f9545afc28bf63ca91d2016a0a288f90f9a32f89d3fffcaf');
INSERT INTO public.seats VALUES ('w1', 1, 'human', NULL, NULL, NULL);
INSERT INTO public.seats VALUES ('x1', 0, 'human', NULL, 'Dan', 'ec31682fde561917952ff78a7a8adeffd0febc372dd26871916c46c630381b45');
INSERT INTO public.seats VALUES ('x1', 1, 'human', NULL, NULL, NULL);

INSERT INTO public.tables VALUES ('g1', '2026-12-02 02:17:30.697994+00', '{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "7831c3ec66511e5e46019aba43d8fa898d16b3ba7012dd03a7179698dff772b9", "salt": "1c4cbd6c78c0b874035b667557b87219"}, "invite": null}', '2026-12-02 02:17:30.712786+00');
INSERT INTO public.tables VALUES ('g2', '2026-12-02 02:17:30.730234+00', '{"rules": {"variant": "block", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "55ddebd5f35a819087ff4e4bba534dde5e6666ed87cc2111e9232e2110450435", "salt": "1a535f19d27ce2c58bb992d6a872e3d3"}, "invite": null}', '2026-12-02 02:17:30.736533+00');
INSERT INTO public.tables VALUES ('g3', '2026-12-02 02:17:30.755537+00', '{"rules": {"variant": "allfives", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "892a0aa1e9fa9025010256825021823b1fb459ce0c59183d636eb6d2eeb628a2", "salt": "2175e6e5036ef3edd536854a342dbbe2"}, "invite": null}', '2026-12-02 02:17:30.769184+00');
INSERT INTO public.tables VALUES ('o1', '2026-12-02 02:17:30.778067+00', '{"rules": {"variant": "kozel", "players": 4, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "7050dc4e8399672cdaedaa55b1cf4989262c9121dde3866ca2a7eaec86c50ef0", "salt": "0c2443012102821c56d2618d5fd400d1"}, "invite": null}', NULL);
INSERT INTO public.tables VALUES ('w1', '2026-12-02 02:17:30.784389+00', '{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "1bd441cc0cd4c263bb280ac16c909f47b36e4a07c39bde42cfd2d9207576574a", "salt": "eee4b9227aa1b1e08319502c898b6364"}, "invite": null}', NULL);
INSERT INTO public.tables VALUES ('x1', '2026-12-02 02:17:30.787739+00', '{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "af14ec3399014576a73c3f63eb5738c350694136801488fda439bf88e3d12c35", "salt": "be02b0d7d8a6abf675899cd1eca34dfd"}, "invite": null}', '2026-12-02 02:17:30.793185+00');

INSERT INTO public.totals VALUES ('ann', 'variant', 'draw', 1, 1, 0, 5);
INSERT INTO public.totals VALUES ('ann', 'level', 'easy', 1, 1, 0, 5);
INSERT INTO public.totals VALUES ('ann', 'total', '', 2, 1, 1, 5);
INSERT INTO public.totals VALUES ('ann', 'variant', 'block', 1, 0, 1, 0);
INSERT INTO public.totals VALUES ('ann', 'level', 'people', 1, 0, 1, 0);
INSERT INTO public.totals VALUES ('bob', 'variant', 'block', 1, 1, 0, 7);
INSERT INTO public.totals VALUES ('bob', 'level', 'people', 1, 1, 0, 7);
INSERT INTO public.totals VALUES ('bob', 'total', '', 2, 2, 0, 27);
INSERT INTO public.totals VALUES ('bob', 'variant', 'allfives', 1, 1, 0, 20);
INSERT INTO public.totals VALUES ('bob', 'level', 'hard', 1, 1, 0, 20);

SELECT pg_catalog.setval('public.events_id_seq', 51, true);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_table_id_seq_key UNIQUE (table_id, seq);

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_pkey PRIMARY KEY (table_id);

ALTER TABLE ONLY public.plays
    ADD CONSTRAINT plays_pkey PRIMARY KEY (table_id, seat);

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT seats_pkey PRIMARY KEY (table_id, seat);

ALTER TABLE ONLY public.tables
    ADD CONSTRAINT tables_pkey PRIMARY KEY (id);

ALTER TABLE ONLY public.totals
    ADD CONSTRAINT totals_pkey PRIMARY KEY (name_key, "grouping", "group");

CREATE INDEX ix_events_table_id ON public.events USING btree (table_id);

CREATE INDEX ix_seats_name ON public.seats USING btree (name);

CREATE INDEX ix_seats_token_hash ON public.seats USING btree (token_hash);

CREATE INDEX plays_by_name ON public.plays USING btree (name_key, finished);

ALTER TABLE ONLY public.events
    ADD CONSTRAINT events_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.tables(id);

ALTER TABLE ONLY public.games
    ADD CONSTRAINT games_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.tables(id);

ALTER TABLE ONLY public.plays
    ADD CONSTRAINT plays_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.games(table_id);

ALTER TABLE ONLY public.seats
    ADD CONSTRAINT seats_table_id_fkey FOREIGN KEY (table_id) REFERENCES public.tables(id);

