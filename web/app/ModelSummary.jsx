// ModelSummary.jsx — what the config was read as, so that a pasted config
// can be checked: total and active parameters, layers by kind, experts,
// shared experts and top-k, the parameters each GPU holds, and which config
// keys were read, defaulted and ignored (the engine's result.model).

import { count, paramCount } from './format.js';
import { Card } from './Card.jsx';
import { Outside } from './Outside.jsx';

function KeyList({ title, keys }) {
  if (!keys?.length) return null;
  return (
    <div class="key-list">
      <h4>{title} ({keys.length})</h4>
      <p><code><Outside text={keys.join(', ')} /></code></p>
    </div>
  );
}

/** Which config keys were read, defaulted and ignored (result.model's config_keys). */
function ConfigKeys({ keys }) {
  return (
    <details class="numbers">
      <summary>Config keys: {keys.read?.length ?? 0} read, {keys.defaulted?.length ?? 0} defaulted, {keys.ignored?.length ?? 0} ignored</summary>
      <KeyList title="Read" keys={keys.read} />
      <KeyList title="Defaulted (looked up, absent)" keys={keys.defaulted} />
      <KeyList title="Ignored (not used by the estimate)" keys={keys.ignored} />
    </details>
  );
}

/** What a token passes through, as the active count counts it (no routed experts in a dense model). */
function activeParts(m) {
  const routed = m.experts > 0 ? `, shared experts and the top-${m.experts_per_token} routed experts` : '';
  return `embeddings, lm_head, norms, attention, routers, dense MLPs${routed}, as “A3B”-style figures count them`;
}

/**
 * Props: model (a result's model), ranks (the result's ranks, for the
 * parameters per GPU; null while the layout on screen is not valid),
 * answerFor and note (Card's; by default StaleNote's).
 * @param {{model: any, ranks: any, answerFor: string, note?: string}} props
 */
export function ModelSummary({ model: m, ranks, answerFor, note = undefined }) {
  if (!m) return null;
  const kinds = m.layers_by_kind ?? {};
  const keys = m.config_keys ?? {};
  const perGpu = (ranks ?? []).map((r) => r.parameters_per_gpu).filter((v) => typeof v === 'number');
  const lo = Math.min(...perGpu);
  const hi = Math.max(...perGpu);
  const attn = [
    kinds.full_attention ? `${kinds.full_attention} full attention` : '',
    kinds.sliding_attention ? `${kinds.sliding_attention} sliding-window` : '',
    kinds.linear_attention ? `${kinds.linear_attention} linear attention` : '',
  ].filter(Boolean).join(', ');
  return (
    <Card answerFor={answerFor} note={note} class="model-summary" aria-labelledby="model-summary-title" data-testid="model-summary">
      <h2 id="model-summary-title">Model as read</h2>
      <dl class="summary-grid">
        <dt>Parameters</dt>
        <dd data-testid="total-parameters" data-count={m.total_parameters}>{paramCount(m.total_parameters)} in all</dd>
        <dt>Active per token</dt>
        <dd data-testid="active-parameters" data-count={m.active_parameters}>
          {paramCount(m.active_parameters)}
          <span class="help"> ({activeParts(m)})</span>
          {typeof m.active_parameters_without_embedding === 'number' && (
            <>
              ; <span data-testid="active-parameters-without-embedding" data-count={m.active_parameters_without_embedding}>
                {paramCount(m.active_parameters_without_embedding)}</span> without the input embedding
              <span class="help"> (as OpenAI, IBM and DeepSeek from V2 on count theirs)</span>
            </>
          )}
        </dd>
        <dt>Layers</dt>
        <dd>{m.layers}: {m.experts > 0 ? `${kinds.moe ?? 0} with experts, ` : ''}{kinds.dense ?? 0} dense{attn ? `; ${attn}` : ''}</dd>
        {m.experts > 0 && (
          <>
            <dt>Experts</dt>
            <dd>{m.experts} routed, top-{m.experts_per_token}{m.shared_experts > 0 ? `; ${m.shared_experts} shared (width ${count(m.shared_expert_size)})` : ''}</dd>
          </>
        )}
        <dt>Per GPU</dt>
        <dd>
          {perGpu.length > 0
            ? `${lo === hi ? paramCount(lo) : `${paramCount(lo)} to ${paramCount(hi)}`} parameters in each GPU’s shards (the rank table under Numbers has each rank)`
            : 'follows once the layout is valid'}
        </dd>
        <dt>Architecture</dt>
        <dd>{m.architecture} ({m.model_type || 'no model_type'}), hidden size {count(m.hidden_size)}, vocabulary {count(m.vocab_size)}</dd>
      </dl>
      <ConfigKeys keys={keys} />
    </Card>
  );
}
