-- name: ViewerEpisode
-- Everything the lake holds about one episode $1, for `trustlake view`
-- (Session.ViewerEpisode), each part as a JSON array of its rows. Every
-- part filters on episode_id (or, for self-tests and the Trust Layer, on
-- keys found from it), so DuckDB prunes row groups by their statistics
-- and the cost follows the episode, not the lake. Long texts are cut to
-- $2 bytes (the *_bytes columns keep their full length) and actions to
-- the first $3 steps (n_actions counts them all). majorities holds each
-- judge × condition's runs and majority (metric_episodes at threshold $4),
-- categories and human its effective category and human reference (the
-- views of the same names, which the metrics read; columns named as the
-- viewer's Effective fields).
SELECT
    (SELECT CAST(to_json(list(x)) AS VARCHAR) FROM (
        SELECT episode_id, task_id, source, agent, agent_version, agent_seed, n_steps,
            left(final_message, $2) AS final_message, strlen(final_message) AS final_message_bytes,
            sandbox_image, CAST(created_at AS VARCHAR) AS created_at, parent_episode_id, perturbation,
            final_state_sha256, n_screens, extra, dir
        FROM episodes WHERE episode_id = $1) x) AS episode,
    (SELECT count(*) FROM actions WHERE episode_id = $1) AS n_actions,
    (SELECT CAST(to_json(list(x ORDER BY x.step)) AS VARCHAR) FROM (
        SELECT step, action, role, left(text, $2) AS text, keys, screen, screen_sha256, tool_name,
            left(arguments, $2) AS arguments, left(observation, $2) AS observation
        FROM actions WHERE episode_id = $1 ORDER BY step LIMIT $3) x) AS actions,
    (SELECT CAST(to_json(list(x ORDER BY x.source, x.verifier_sha256, x.annotator)) AS VARCHAR) FROM (
        SELECT verifier_sha256, pass, score, category, category_raw, left(diagnostics, $2) AS diagnostics,
            gates, deterministic, coalesce(source, 'verifier') AS source, annotator
        FROM ground_truth WHERE episode_id = $1) x) AS ground_truth,
    (SELECT CAST(to_json(list(x ORDER BY x.verifier_sha256, x.fixture)) AS VARCHAR) FROM (
        SELECT verifier_sha256, fixture, want_pass, want_category, got_pass, got_category, deterministic, ok, error, sandbox,
            CAST(ran_at AS VARCHAR) AS ran_at
        FROM selftests
        WHERE verifier_sha256 IN (SELECT verifier_sha256 FROM ground_truth WHERE episode_id = $1 AND verifier_sha256 <> '')) x) AS selftests,
    (SELECT CAST(to_json(list(x)) AS VARCHAR) FROM (
        SELECT category, category_raw, annotator, note FROM labels WHERE episode_id = $1) x) AS labels,
    (SELECT CAST(to_json(list(x ORDER BY x.reviewed_at, x.review_id)) AS VARCHAR) FROM (
        SELECT review_id, reviewer, strftime(reviewed_at, '%Y-%m-%dT%H:%M:%S.%fZ') AS reviewed_at, category, pass, note, prev_category, prev_pass
        FROM reviews WHERE episode_id = $1) x) AS reviews,
    (SELECT CAST(to_json(list(x ORDER BY x.judge, x.condition, x.run)) AS VARCHAR) FROM (
        SELECT judge, condition, run, verdict, score, confidence, model, CAST(called_at AS VARCHAR) AS called_at,
            pack_sha256, prompt_sha256, latency_ms, left(raw, $2) AS raw, left(extra, $2) AS extra
        FROM verdicts WHERE episode_id = $1) x) AS verdicts,
    (SELECT CAST(to_json(list(x ORDER BY x.condition)) AS VARCHAR) FROM (
        SELECT condition, pack_sha256, inputs, steps, image_sha256, n_images, image_bytes, pack_bytes, last_k,
            max_image_side, max_images, guard
        FROM evidence WHERE episode_id = $1) x) AS evidence,
    (SELECT CAST(to_json(list(x ORDER BY x.result_id)) AS VARCHAR) FROM (
        SELECT t.* EXCLUDE (_src_file, _src_line)
        FROM trust t
        WHERE t.result_id IN (SELECT result_id FROM results WHERE episode_id = $1)) x) AS trust,
    (SELECT CAST(to_json(list(x ORDER BY x.judge, x.condition)) AS VARCHAR) FROM (
        SELECT judge, condition, n_runs, n_parse, n_success, n_failure, n_uncertain, n_unscored, majority
        FROM metric_episodes(CAST($4 AS DOUBLE), 'verifier') WHERE episode_id = $1) x) AS majorities,
    (SELECT CAST(to_json(list(x)) AS VARCHAR) FROM (
        SELECT category, category_raw, category_from, gt_pass AS verifier_pass, verifier_category, needs_review
        FROM categories WHERE episode_id = $1) x) AS categories,
    (SELECT CAST(to_json(list(x)) AS VARCHAR) FROM (
        SELECT n_annotators, n_pass, n_fail, pass AS human_pass, tie, review_pass
        FROM human_reference WHERE episode_id = $1) x) AS human
