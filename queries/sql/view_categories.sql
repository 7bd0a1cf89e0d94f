-- name: ViewCategories
-- categories gives each episode with ground truth its effective failure
-- category: a human review (table reviews, the latest action that sets a
-- category; trustlake view --review) wins over a label (ingest labels),
-- which wins over the verifier's category. Categories outside the seven
-- codes are kept raw and flagged needs_review. gt_pass is the verifier's
-- verdict (human pass/fail judgments are in human_reference).
-- label_category is the human category (review, else label); category_from
-- says where the effective one came from: review, label or verifier.
-- Plain SQL that Spark runs too (queries/spark): a temporary view, an
-- explicit join condition.
CREATE OR REPLACE TEMPORARY VIEW categories AS
WITH gt AS (
    SELECT episode_id, pass, category, category_raw,
           row_number() OVER (PARTITION BY episode_id ORDER BY verifier_sha256) AS rn
    FROM ground_truth
    WHERE source IS DISTINCT FROM 'human'
),
rv AS (
    SELECT episode_id, category,
           row_number() OVER (PARTITION BY episode_id ORDER BY reviewed_at DESC, review_id DESC) AS rn
    FROM reviews
    WHERE category IS NOT NULL
),
l AS (
    SELECT coalesce(r.episode_id, lb.episode_id) AS episode_id,
           CASE WHEN r.episode_id IS NOT NULL THEN r.category ELSE lb.category END AS category,
           CASE WHEN r.episode_id IS NOT NULL THEN r.category ELSE lb.category_raw END AS category_raw,
           CASE WHEN r.episode_id IS NOT NULL THEN 'review' ELSE 'label' END AS category_from
    FROM (SELECT * FROM rv WHERE rn = 1) r
    FULL OUTER JOIN labels lb ON r.episode_id = lb.episode_id
)
SELECT
    coalesce(gt.episode_id, l.episode_id)          AS episode_id,
    gt.pass                                        AS gt_pass,
    gt.category                                    AS verifier_category,
    l.category                                     AS label_category,
    CASE WHEN l.episode_id IS NOT NULL THEN l.category ELSE gt.category END AS category,
    CASE WHEN l.episode_id IS NOT NULL THEN l.category_raw ELSE gt.category_raw END AS category_raw,
    CASE WHEN l.episode_id IS NOT NULL THEN l.category_from WHEN gt.category_raw IS NOT NULL THEN 'verifier' END AS category_from,
    (coalesce(gt.pass, false) = false
        AND (CASE WHEN l.episode_id IS NOT NULL THEN l.category ELSE gt.category END) IS NULL) AS needs_review
FROM (SELECT * FROM gt WHERE rn = 1) gt
FULL OUTER JOIN l ON gt.episode_id = l.episode_id
