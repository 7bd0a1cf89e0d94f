-- name: ReportNeedsReview
-- GT failures whose effective category needs human review, by the raw
-- category the verifier wrote ('(none)' when it wrote none).
SELECT coalesce(category_raw, '(none)') AS raw, count(*) AS episodes
FROM categories
WHERE needs_review
GROUP BY ALL
ORDER BY episodes DESC, raw
