"""A cross-encoder whose head is late interaction over the jointly encoded pair (set-up only: torch).

The pair "[CLS] query [SEP] passage [SEP]" goes through the transformer together (every layer attends
across query and passage, as in any cross-encoder); the score is MaxSim over the output: for each query
token, its best cosine against the passage tokens, averaged, then scaled: logit = scale * maxsim + bias.
Initialised from all-MiniLM-L6-v2, whose token vectors already carry MaxSim's relevance signal (the
training-free stage Citeline measured), so training starts from a working ranker instead of a random
head. It exports to ONNX with the usual inputs (input_ids, attention_mask, token_type_ids) and one logit
per pair, so the engine's cross-encoder stage runs it like any imported model.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn


class LateInteractionCrossEncoder(nn.Module):
    def __init__(self, bert: Any, scale: float = 10.0) -> None:
        super().__init__()
        self.bert = bert
        self.scale = nn.Parameter(torch.tensor(scale))
        self.bias = nn.Parameter(torch.tensor(0.0))

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.bert(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        hidden = nn.functional.normalize(hidden, dim=-1)
        mask = attention_mask.bool()
        positions = torch.arange(input_ids.shape[1], device=input_ids.device).unsqueeze(0)
        query = mask & (token_type_ids == 0) & (positions > 0)  # the query's tokens, [CLS] aside
        passage = mask & (token_type_ids == 1)
        sim = hidden @ hidden.transpose(1, 2)  # (batch, seq, seq)
        sim = sim.masked_fill(~passage.unsqueeze(1), -1.0)
        best = sim.max(dim=2).values  # each token's best cosine against the passage
        weights = query.to(best.dtype)
        maxsim = (best * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)
        return (self.scale * maxsim + self.bias).unsqueeze(1)
