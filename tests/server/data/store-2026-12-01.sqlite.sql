BEGIN TRANSACTION;
CREATE TABLE events (
	id INTEGER NOT NULL, 
	table_id VARCHAR(32) NOT NULL, 
	seq INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	seat INTEGER, 
	data JSON NOT NULL, 
	at DATETIME NOT NULL, 
	PRIMARY KEY (id), 
	UNIQUE (table_id, seq), 
	FOREIGN KEY(table_id) REFERENCES tables (id)
);
INSERT INTO "events" VALUES(1,'g1',0,'deal',NULL,'{"hands": [["6-3", "5-5", "5-4", "5-1", "5-0", "4-4", "2-1"], ["6-4", "5-3", "4-3", "4-2", "4-1", "3-0", "2-2"]], "boneyard": ["5-2", "1-0", "6-6", "0-0", "6-2", "6-1", "3-1", "6-0", "3-3", "1-1", "2-0", "3-2", "4-0", "6-5"]}','2026-12-02 02:17:25.624385');
INSERT INTO "events" VALUES(2,'g1',1,'move',1,'{"move": "5-3 right"}','2026-12-02 02:17:25.624391');
INSERT INTO "events" VALUES(3,'g1',2,'move',0,'{"move": "5-1 left"}','2026-12-02 02:17:25.624392');
INSERT INTO "events" VALUES(4,'g1',3,'move',1,'{"move": "4-3 right"}','2026-12-02 02:17:25.624393');
INSERT INTO "events" VALUES(5,'g1',4,'move',0,'{"move": "4-4 right"}','2026-12-02 02:17:25.624394');
INSERT INTO "events" VALUES(6,'g1',5,'move',1,'{"move": "4-1 left"}','2026-12-02 02:17:25.624395');
INSERT INTO "events" VALUES(7,'g1',6,'move',0,'{"move": "5-4 left"}','2026-12-02 02:17:25.624396');
INSERT INTO "events" VALUES(8,'g1',7,'move',1,'{"move": "6-4 right"}','2026-12-02 02:17:25.624398');
INSERT INTO "events" VALUES(9,'g1',8,'move',0,'{"move": "6-3 right"}','2026-12-02 02:17:25.624399');
INSERT INTO "events" VALUES(10,'g1',9,'move',1,'{"move": "3-0 right"}','2026-12-02 02:17:25.624400');
INSERT INTO "events" VALUES(11,'g1',10,'move',0,'{"move": "5-0 left"}','2026-12-02 02:17:25.624401');
INSERT INTO "events" VALUES(12,'g1',11,'move',1,'{"move": "draw"}','2026-12-02 02:17:25.624402');
INSERT INTO "events" VALUES(13,'g1',12,'move',1,'{"move": "draw"}','2026-12-02 02:17:25.624403');
INSERT INTO "events" VALUES(14,'g1',13,'move',1,'{"move": "1-0 left"}','2026-12-02 02:17:25.624403');
INSERT INTO "events" VALUES(15,'g1',14,'move',0,'{"move": "2-1 left"}','2026-12-02 02:17:25.624404');
INSERT INTO "events" VALUES(16,'g2',0,'deal',NULL,'{"hands": [["6-6", "5-5", "5-2", "5-1", "4-4", "3-1", "2-0"], ["6-3", "5-4", "5-0", "4-1", "4-0", "3-3", "0-0"]], "boneyard": []}','2026-12-02 02:17:25.643927');
INSERT INTO "events" VALUES(17,'g2',1,'move',1,'{"move": "6-3 right"}','2026-12-02 02:17:25.643932');
INSERT INTO "events" VALUES(18,'g2',2,'move',0,'{"move": "3-1 right"}','2026-12-02 02:17:25.643933');
INSERT INTO "events" VALUES(19,'g2',3,'move',1,'{"move": "4-1 right"}','2026-12-02 02:17:25.643934');
INSERT INTO "events" VALUES(20,'g2',4,'move',0,'{"move": "4-4 right"}','2026-12-02 02:17:25.643934');
INSERT INTO "events" VALUES(21,'g2',5,'move',1,'{"move": "5-4 right"}','2026-12-02 02:17:25.643935');
INSERT INTO "events" VALUES(22,'g2',6,'move',0,'{"move": "5-1 right"}','2026-12-02 02:17:25.643936');
INSERT INTO "events" VALUES(23,'g3',0,'deal',NULL,'{"hands": [["6-6", "6-5", "6-4", "4-3", "3-0", "2-2", "0-0"], ["6-3", "6-0", "4-4", "4-2", "3-3", "3-1", "1-1"]], "boneyard": ["3-2", "5-5", "2-1", "5-1", "6-2", "5-3", "5-4", "4-1", "5-2", "2-0", "1-0", "5-0", "4-0", "6-1"]}','2026-12-02 02:17:25.653887');
INSERT INTO "events" VALUES(24,'g3',1,'move',1,'{"move": "6-0 right"}','2026-12-02 02:17:25.653891');
INSERT INTO "events" VALUES(25,'g3',2,'move',0,'{"move": "6-5 left"}','2026-12-02 02:17:25.653892');
INSERT INTO "events" VALUES(26,'g3',3,'move',1,'{"move": "6-3 up"}','2026-12-02 02:17:25.653893');
INSERT INTO "events" VALUES(27,'g3',4,'move',0,'{"move": "0-0 right"}','2026-12-02 02:17:25.653893');
INSERT INTO "events" VALUES(28,'g3',5,'move',1,'{"move": "3-3 up"}','2026-12-02 02:17:25.653894');
INSERT INTO "events" VALUES(29,'g3',6,'move',0,'{"move": "6-4 down"}','2026-12-02 02:17:25.653895');
INSERT INTO "events" VALUES(30,'g3',7,'move',1,'{"move": "3-1 up"}','2026-12-02 02:17:25.653896');
INSERT INTO "events" VALUES(31,'g3',8,'move',0,'{"move": "3-0 right"}','2026-12-02 02:17:25.653897');
INSERT INTO "events" VALUES(32,'g3',9,'move',1,'{"move": "1-1 up"}','2026-12-02 02:17:25.653897');
INSERT INTO "events" VALUES(33,'g3',10,'move',0,'{"move": "4-3 right"}','2026-12-02 02:17:25.653898');
INSERT INTO "events" VALUES(34,'g3',11,'move',1,'{"move": "4-4 down"}','2026-12-02 02:17:25.653899');
INSERT INTO "events" VALUES(35,'g3',12,'move',0,'{"move": "draw"}','2026-12-02 02:17:25.653900');
INSERT INTO "events" VALUES(36,'g3',13,'move',0,'{"move": "draw"}','2026-12-02 02:17:25.653900');
INSERT INTO "events" VALUES(37,'g3',14,'move',0,'{"move": "5-5 left"}','2026-12-02 02:17:25.653901');
INSERT INTO "events" VALUES(38,'g3',15,'move',1,'{"move": "4-2 right"}','2026-12-02 02:17:25.653902');
INSERT INTO "events" VALUES(39,'o1',0,'deal',NULL,'{"hands": [["6-4", "6-2", "5-5", "4-4", "4-1", "3-0", "1-0"], ["6-5", "6-3", "5-4", "5-0", "4-0", "3-1", "2-0"], ["6-6", "6-1", "5-2", "3-3", "2-2", "2-1", "1-1"], ["6-0", "5-3", "5-1", "4-3", "4-2", "3-2", "0-0"]], "boneyard": []}','2026-12-02 02:17:25.661387');
INSERT INTO "events" VALUES(40,'o1',1,'move',3,'{"move": "5-1 left"}','2026-12-02 02:17:25.661392');
INSERT INTO "events" VALUES(41,'o1',2,'move',0,'{"move": "1-0 right"}','2026-12-02 02:17:25.661393');
INSERT INTO "events" VALUES(42,'o1',3,'move',1,'{"move": "5-0 left"}','2026-12-02 02:17:25.661394');
INSERT INTO "events" VALUES(43,'o1',4,'move',2,'{"move": "pass"}','2026-12-02 02:17:25.661395');
INSERT INTO "events" VALUES(44,'o1',5,'move',3,'{"move": "0-0 left"}','2026-12-02 02:17:25.661396');
INSERT INTO "events" VALUES(45,'o1',6,'move',0,'{"move": "3-0 left"}','2026-12-02 02:17:25.661396');
INSERT INTO "events" VALUES(46,'o1',7,'move',1,'{"move": "3-1 left"}','2026-12-02 02:17:25.661397');
INSERT INTO "events" VALUES(47,'o1',8,'move',2,'{"move": "2-1 left"}','2026-12-02 02:17:25.661398');
INSERT INTO "events" VALUES(48,'o1',9,'move',3,'{"move": "4-2 left"}','2026-12-02 02:17:25.661399');
INSERT INTO "events" VALUES(49,'o1',10,'move',0,'{"move": "4-1 left"}','2026-12-02 02:17:25.661399');
CREATE TABLE games (
	table_id VARCHAR(32) NOT NULL, 
	variant VARCHAR(16) NOT NULL, 
	finished DATETIME NOT NULL, 
	names JSON NOT NULL, 
	sides JSON NOT NULL, 
	scores JSON NOT NULL, 
	winner INTEGER, 
	loser INTEGER, 
	record JSON NOT NULL, 
	PRIMARY KEY (table_id), 
	FOREIGN KEY(table_id) REFERENCES tables (id)
);
INSERT INTO "games" VALUES('g1','draw','2026-12-02 02:17:25.629298','["Ann", "bot:easy"]','[0, 1]','[17, 0]',0,NULL,'{"format": "bones-record", "version": 1, "rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["6-3", "5-5", "5-4", "5-1", "5-0", "4-4", "2-1"], ["6-4", "5-3", "4-3", "4-2", "4-1", "3-0", "2-2"]], "boneyard": ["5-2", "1-0", "6-6", "0-0", "6-2", "6-1", "3-1", "6-0", "3-3", "1-1", "2-0", "3-2", "4-0", "6-5"]}], "moves": ["5-3 right", "5-1 left", "4-3 right", "4-4 right", "4-1 left", "5-4 left", "6-4 right", "6-3 right", "3-0 right", "5-0 left", "draw", "draw", "1-0 left", "2-1 left"], "results": [{"lead": {"seat": 0, "tile": "5-5", "automatic": true}, "move_count": 14, "winner": 0, "reason": "domino", "points": [17, 0], "eggs": 0, "ended_by": 0, "count_points": [0, 0], "scores_after": [17, 0]}], "scores": [17, 0], "eggs": 0, "is_over": true, "winner": 0, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "7f064b4e074765585e7f636fca5881284958c628967cdedd878b904b734649c2", "salt": "7c38fdec37639bc6b6525bd4db80c086", "seed": "2da4e5beb508c3eb3255a5b0d6300bc86440a40f0487ffdd2e1ed566d3036925"}, "assists": []}');
INSERT INTO "games" VALUES('g2','block','2026-12-02 02:17:25.645191','["ann", "Bob"]','[0, 1]','[0, 4]',1,NULL,'{"format": "bones-record", "version": 1, "rules": {"variant": "block", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["6-6", "5-5", "5-2", "5-1", "4-4", "3-1", "2-0"], ["6-3", "5-4", "5-0", "4-1", "4-0", "3-3", "0-0"]], "boneyard": []}], "moves": ["6-3 right", "3-1 right", "4-1 right", "4-4 right", "5-4 right", "5-1 right"], "results": [{"lead": {"seat": 0, "tile": "6-6", "automatic": true}, "move_count": 6, "winner": 1, "reason": "blocked", "points": [0, 4], "eggs": 0, "ended_by": 0, "count_points": [0, 0], "scores_after": [0, 4]}], "scores": [0, 4], "eggs": 0, "is_over": true, "winner": 1, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "e1dd7128411d32643a9054173ccf87bba64f8b54e642d95845c9f15602949a74", "salt": "de08c895c6e435639216deaf47e12443", "seed": "9ca47b5123da2d910480f52dd7c2be0f0ecdb169508adc12715bc66f8dac94d8"}, "assists": []}');
INSERT INTO "games" VALUES('g3','allfives','2026-12-02 02:17:25.655393','["Bob", "bot:hard"]','[0, 1]','[35, 15]',0,NULL,'{"format": "bones-record", "version": 1, "rules": {"variant": "allfives", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "deals": [{"hands": [["6-6", "6-5", "6-4", "4-3", "3-0", "2-2", "0-0"], ["6-3", "6-0", "4-4", "4-2", "3-3", "3-1", "1-1"]], "boneyard": ["3-2", "5-5", "2-1", "5-1", "6-2", "5-3", "5-4", "4-1", "5-2", "2-0", "1-0", "5-0", "4-0", "6-1"]}], "moves": ["6-0 right", "6-5 left", "6-3 up", "0-0 right", "3-3 up", "6-4 down", "3-1 up", "3-0 right", "1-1 up", "4-3 right", "4-4 down", "draw", "draw", "5-5 left", "4-2 right"], "results": [{"lead": {"seat": 0, "tile": "6-6", "automatic": true}, "move_count": 15, "winner": 1, "reason": "domino", "points": [0, 5], "eggs": 0, "ended_by": 1, "count_points": [35, 10], "scores_after": [35, 15]}], "scores": [35, 15], "eggs": 0, "is_over": true, "winner": 0, "loser": null, "shutout": false, "fair": {"algorithm": "bones-fair-v1", "commitment": "ed206250677bd4a2eff1e61b65034204959f43fd36e9176d9028c8405fdb15bc", "salt": "5926319aac73fea5b9bec86ee6848df8", "seed": "a899891b23315ccd52649d6a612a012f792d6c659ae36253a34e40c86d2c3f32"}, "assists": []}');
CREATE TABLE plays (
	table_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	name_key VARCHAR(64) NOT NULL, 
	finished DATETIME NOT NULL, 
	PRIMARY KEY (table_id, seat), 
	FOREIGN KEY(table_id) REFERENCES games (table_id)
);
INSERT INTO "plays" VALUES('g1',0,'ann','2026-12-02 02:17:25.629298');
INSERT INTO "plays" VALUES('g2',0,'ann','2026-12-02 02:17:25.645191');
INSERT INTO "plays" VALUES('g2',1,'bob','2026-12-02 02:17:25.645191');
INSERT INTO "plays" VALUES('g3',0,'bob','2026-12-02 02:17:25.655393');
CREATE TABLE seats (
	table_id VARCHAR(32) NOT NULL, 
	seat INTEGER NOT NULL, 
	kind VARCHAR(8) NOT NULL, 
	level VARCHAR(16), 
	name VARCHAR(64), 
	token_hash VARCHAR(64), 
	PRIMARY KEY (table_id, seat), 
	FOREIGN KEY(table_id) REFERENCES tables (id)
);
INSERT INTO "seats" VALUES('g1',0,'human',NULL,'Ann','f55ff16f66f43360266b95db6f8fec01d76031054306ae4a4b380598f6cfd114');
INSERT INTO "seats" VALUES('g1',1,'bot','easy',NULL,NULL);
INSERT INTO "seats" VALUES('g2',0,'human',NULL,'ann','2c3a4249d77070058649dbd822dcaf7957586fce428cfb2ca88b94741eda8b07');
INSERT INTO "seats" VALUES('g2',1,'human',NULL,'Bob','4814d92093ac8a0f4a2163ab87dee509ba306a58f5888be0edcb2fcd0712028b');
INSERT INTO "seats" VALUES('g3',0,'human',NULL,'Bob','76a8277347f52530e1cf979175a178980b3a180d176165c985d85f7e142f1eed');
INSERT INTO "seats" VALUES('g3',1,'bot','hard',NULL,NULL);
INSERT INTO "seats" VALUES('o1',0,'human',NULL,'Cleo','d0f631ca1ddba8db3bcfcb9e057cdc98d0379f1bee00e75a545147a27dadd982');
INSERT INTO "seats" VALUES('o1',1,'bot','medium',NULL,NULL);
INSERT INTO "seats" VALUES('o1',2,'bot','easy',NULL,NULL);
INSERT INTO "seats" VALUES('o1',3,'bot','medium',NULL,NULL);
INSERT INTO "seats" VALUES('w1',0,'human',NULL,'Dan','60c5590f72eef292f9545afc28bf63ca91d2016a0a288f90f9a32f89d3fffcaf');
INSERT INTO "seats" VALUES('w1',1,'human',NULL,NULL,NULL);
INSERT INTO "seats" VALUES('x1',0,'human',NULL,'Dan','ec31682fde561917952ff78a7a8adeffd0febc372dd26871916c46c630381b45');
INSERT INTO "seats" VALUES('x1',1,'human',NULL,NULL,NULL);
CREATE TABLE tables (
	id VARCHAR(32) NOT NULL, 
	created DATETIME NOT NULL, 
	config JSON NOT NULL, 
	finished DATETIME, 
	PRIMARY KEY (id)
);
INSERT INTO "tables" VALUES('g1','2026-12-02 02:17:25.621495','{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "2da4e5beb508c3eb3255a5b0d6300bc86440a40f0487ffdd2e1ed566d3036925", "salt": "7c38fdec37639bc6b6525bd4db80c086"}, "invite": null}','2026-12-02 02:17:25.629298');
INSERT INTO "tables" VALUES('g2','2026-12-02 02:17:25.642805','{"rules": {"variant": "block", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "9ca47b5123da2d910480f52dd7c2be0f0ecdb169508adc12715bc66f8dac94d8", "salt": "de08c895c6e435639216deaf47e12443"}, "invite": null}','2026-12-02 02:17:25.645191');
INSERT INTO "tables" VALUES('g3','2026-12-02 02:17:25.652825','{"rules": {"variant": "allfives", "players": 2, "hand_size": 7, "target": null, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "a899891b23315ccd52649d6a612a012f792d6c659ae36253a34e40c86d2c3f32", "salt": "5926319aac73fea5b9bec86ee6848df8"}, "invite": null}','2026-12-02 02:17:25.655393');
INSERT INTO "tables" VALUES('o1','2026-12-02 02:17:25.660415','{"rules": {"variant": "kozel", "players": 4, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "84090d4e9e1fb901cd74e431344e6db2382d6e23ac2196a06ae5c7b5e09dc3a8", "salt": "6f78086ce3fe464e1e9d89cc31d9b37a"}, "invite": null}',NULL);
INSERT INTO "tables" VALUES('w1','2026-12-02 02:17:25.662708','{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "831aeddb67347a278c8c6746ca65aebcfc622ad433199549bfad46768d9221a4", "salt": "66923590b2af0940c4d28b44f02e67f0"}, "invite": null}',NULL);
INSERT INTO "tables" VALUES('x1','2026-12-02 02:17:25.663836','{"rules": {"variant": "draw", "players": 2, "hand_size": 7, "target": 100, "blocked_scoring": "others_minus_own", "opening_every_round": false}, "bot_delay": 0.8, "clock": null, "fair": {"seed": "84fec45bbe6fc493dac3551c084253a28a4540a9feb3295c1c55726a28dbb2a8", "salt": "e8ab29a47c4e87859c64134a3da262f9"}, "invite": null}','2026-12-02 02:17:25.664790');
CREATE TABLE totals (
	name_key VARCHAR(64) NOT NULL, 
	grouping VARCHAR(8) NOT NULL, 
	"group" VARCHAR(16) NOT NULL, 
	games INTEGER NOT NULL, 
	wins INTEGER NOT NULL, 
	losses INTEGER NOT NULL, 
	points INTEGER NOT NULL, 
	PRIMARY KEY (name_key, grouping, "group")
);
INSERT INTO "totals" VALUES('ann','total','',2,1,1,17);
INSERT INTO "totals" VALUES('ann','variant','draw',1,1,0,17);
INSERT INTO "totals" VALUES('ann','level','easy',1,1,0,17);
INSERT INTO "totals" VALUES('ann','variant','block',1,0,1,0);
INSERT INTO "totals" VALUES('ann','level','people',1,0,1,0);
INSERT INTO "totals" VALUES('bob','total','',2,2,0,39);
INSERT INTO "totals" VALUES('bob','variant','block',1,1,0,4);
INSERT INTO "totals" VALUES('bob','level','people',1,1,0,4);
INSERT INTO "totals" VALUES('bob','variant','allfives',1,1,0,35);
INSERT INTO "totals" VALUES('bob','level','hard',1,1,0,35);
CREATE INDEX ix_seats_token_hash ON seats (token_hash);
CREATE INDEX ix_seats_name ON seats (name);
CREATE INDEX ix_events_table_id ON events (table_id);
CREATE INDEX plays_by_name ON plays (name_key, finished);
COMMIT;
