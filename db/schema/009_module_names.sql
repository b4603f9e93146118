-- Version 9: module paths interned. A path holds its parent's path, so a hierarchy d levels deep stored
-- whole paths with text growing as d squared (a 371 KB trace 2,850 levels deep made a 40 MB file). Each
-- module now stores only its own part of the path; readers build each path once from the parent's. The view
-- `module` keeps the version 1 columns (id, parent_id, path, type) for SQL queries; flopscope's readers use
-- module_node.

CREATE TABLE module_node (
  id INTEGER PRIMARY KEY,                 -- module id, unique within the run
  parent_id INTEGER REFERENCES module_node(id), -- enclosing module; NULL for the root
  name TEXT NOT NULL,                     -- with relative = 1: the path's last part, after the parent's path and a '.'; with relative = 0: the whole dotted path ('' for the root)
  relative INTEGER NOT NULL,              -- 1: path = parent's path || '.' || name (the parent's path is never ''); 0: path = name
  type TEXT NOT NULL                      -- module class name, e.g. 'Linear'
);

-- Compared as bytes, so any text (also invalid UTF-8) splits and joins back exactly.
INSERT INTO module_node (id, parent_id, name, relative, type)
  SELECT id, parent_id, CASE WHEN relative THEN CAST(substr(CAST(path AS BLOB), cut) AS TEXT) ELSE path END,
         relative, type
  FROM (SELECT m.id, m.parent_id, m.path, m.type, length(CAST(p.path AS BLOB)) + 2 AS cut,
               ifnull(p.path <> '' AND substr(CAST(m.path AS BLOB), 1, length(CAST(p.path AS BLOB)) + 1) =
                                       CAST(p.path || '.' AS BLOB), 0) AS relative
        FROM module m LEFT JOIN module p ON p.id = m.parent_id);

DROP TABLE module;

CREATE INDEX module_node_by_parent ON module_node(parent_id);

-- Whole paths for SQL users (`SELECT path FROM module`), built from the roots down. A module whose parents
-- form a cycle has no path and is left out; flopscope's reader refuses such a file.
CREATE VIEW module (id, parent_id, path, type) AS
  WITH RECURSIVE tree (id, parent_id, path, type) AS (
    SELECT id, parent_id, name, type FROM module_node WHERE relative = 0
    UNION ALL
    SELECT n.id, n.parent_id, tree.path || '.' || n.name, n.type
      FROM module_node n JOIN tree ON n.parent_id = tree.id
     WHERE n.relative = 1)
  SELECT id, parent_id, path, type FROM tree;
