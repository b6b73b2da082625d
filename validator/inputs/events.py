"""Game-log events (FORMATS §3): the header line and one model per core action.

Every event may carry extra fields (FORMATS is only ever extended); an action no model knows
is an :class:`UnknownEvent`, reported ``not_covered`` by the audit, never an error. Enums
accept their Russian and English spellings (:mod:`validator.inputs.models`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

from validator.inputs.models import Phase, PhaseField, SystemField, lower_spelling


class GameHeader(BaseModel):
    """Line 1 of a game log; ``armies`` values are a path (relative to the log) or a list."""

    model_config = ConfigDict(frozen=True, extra="allow")

    type: Literal["game"]
    system: SystemField
    armies: dict[str, str | dict[str, Any]]


_PHASES = frozenset(get_args(Phase))
_spelt_phase = get_args(PhaseField)[1].func


def _phase(value: Any) -> Any:
    # an event line's phase is nearly always an id as FORMATS writes it: no lookup for those
    return value if type(value) is str and value in _PHASES else _spelt_phase(value)


EventPhase = Annotated[Phase, BeforeValidator(_phase)]
"""A phase by its id or any spelling of it (:data:`~validator.inputs.models.PhaseField`)."""

_Lower = BeforeValidator(lower_spelling)
Inches = Annotated[float, Field(ge=0, allow_inf_nan=False)]
MoveMode = Annotated[Literal["normal", "jump", "jet", "swoop", "glide"], _Lower]
AttackKind = Annotated[Literal["shooting", "close_combat"], _Lower]
ReactKind = Annotated[Literal["overwatch", "retreat"], _Lower]
WeaponKind = Annotated[Literal["normal", "template", "blast", "large_blast"], _Lower]
FlightMode = Annotated[Literal["swoop", "glide"], _Lower]
HitClaim = Annotated[Literal["auto_wound", "hit", "miss"], _Lower]
WoundClaim = Annotated[Literal["slain", "wound", "no_wound"], _Lower]
SaveKind = Annotated[Literal["armour", "ward", "regeneration"], _Lower]
SaveAgainst = Annotated[Literal["flaming", "killing_blow", "spell"], _Lower]
PanicReason = Annotated[
    Literal["heavy_casualties", "friend_destroyed", "friend_broken", "fled_through"], _Lower
]
DeploySpecial = Annotated[Literal["vanguard", "scouts", "ambushers"], _Lower]
ReserveClaim = Annotated[Literal["arrives", "delayed"], _Lower]


STATE_FIELDS = ("in_close_combat", "fleeing", "moved")
"""Fields beyond FORMATS §3 by which any event states its unit's state, ``true`` or ``false``
(see :mod:`validator.audit.stated`); ``moved`` is FORMATS's own field of ``shoot``. They are
extra fields of the models (only ``shoot`` declares ``moved``), so that the million events of
a log that states nothing pay nothing for them; the audit reads and checks them."""


class BaseEvent(BaseModel):
    """Fields every event may carry; extra fields are kept (FORMATS is only ever extended)."""

    model_config = ConfigDict(frozen=True, extra="allow")

    action: str
    turn: int | None = Field(default=None, ge=0)
    phase: EventPhase | None = None
    player: str | None = None
    unit: str | None = None
    note: str | None = None

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.player}:{self.unit}, turn {self.turn})"


class MoveEvent(BaseEvent):
    action: Literal["move"]
    distance: Inches
    mode: MoveMode = "normal"
    pivot: float | None = None
    end_distance_to_enemy: Inches | None = None


class RunEvent(BaseEvent):
    action: Literal["run"]
    distance: Inches


class TurboBoostEvent(BaseEvent):
    action: Literal["turbo_boost"]
    distance: Inches


class AdvanceEvent(BaseEvent):
    action: Literal["advance"]
    roll: int | None = None
    distance: Inches | None = None


class ReadyEvent(BaseEvent):
    action: Literal["ready"]


class FallBackEvent(BaseEvent):
    action: Literal["fall_back"]
    dice: str | None = None
    distance: Inches | None = None
    end_distance_to_enemy: Inches | None = None


class FleeEvent(BaseEvent):
    action: Literal["flee"]
    dice: str | None = None
    distance: Inches | None = None


class ChargeEvent(BaseEvent):
    action: Literal["charge"]
    target: str | None = None
    targets: tuple[str, ...] = ()
    distance_to_target: Inches | None = None
    roll: int | None = None
    reroll: bool | int | None = None
    mode: MoveMode | None = None
    end_distance: Inches | None = None

    @model_validator(mode="after")
    def _has_target(self) -> ChargeEvent:
        if self.target is None and not self.targets:
            raise PydanticCustomError(
                "missing_target", "нет обязательного поля «target» (или «targets»)"
            )
        return self


class ReactEvent(BaseEvent):
    action: Literal["react"]
    kind: ReactKind
    distance: Inches | None = None


class Weapon(BaseModel):
    """One weapon of a ``shoot`` event."""

    model_config = ConfigDict(frozen=True, extra="allow")

    name: str
    kind: WeaponKind = "normal"
    skyfire: bool = False


class ShootEvent(BaseEvent):
    action: Literal["shoot"]
    target: str | None = None
    weapons: tuple[Weapon, ...] = ()
    snap_shots: bool = False
    moved: bool | None = None
    firing_models: int | None = Field(default=None, ge=0)


class FlightModeEvent(BaseEvent):
    action: Literal["flight_mode"]
    mode: FlightMode


class GoToGroundEvent(BaseEvent):
    action: Literal["go_to_ground"]


class HitEvent(BaseEvent):
    action: Literal["hit"]
    natural: int = Field(ge=1)
    modifier: int = 0
    needed: int | str | None = None
    attack: AttackKind | None = None
    rules: tuple[str, ...] = ()
    target: str | None = None
    claimed: HitClaim | None = None


class WoundEvent(BaseEvent):
    action: Literal["wound"]
    natural: int = Field(ge=1)
    attack: AttackKind | None = None
    rules: tuple[str, ...] = ()
    target: str | None = None
    claimed: WoundClaim | None = None


class SaveEvent(BaseEvent):
    action: Literal["save"]
    kind: SaveKind
    value: str | int | None = None
    roll: int | None = None
    against: tuple[SaveAgainst, ...] = ()


class CasualtiesEvent(BaseEvent):
    action: Literal["casualties"]
    count: int = Field(ge=0)
    unit_size_at_phase_start: int | None = Field(default=None, ge=0)
    cause: str | None = None


class UnitDestroyedEvent(BaseEvent):
    action: Literal["unit_destroyed"]
    within_6: tuple[str, ...] = ()


class BreakTestFailedEvent(BaseEvent):
    action: Literal["break_test_failed"]
    within_6: tuple[str, ...] = ()


class FledThroughEvent(BaseEvent):
    """``unit`` is the unit fled through (FORMATS §3)."""

    action: Literal["fled_through"]


class PanicTestEvent(BaseEvent):
    action: Literal["panic_test"]
    reason: PanicReason


class DeployEvent(BaseEvent):
    action: Literal["deploy"]
    special: DeploySpecial | None = None
    move_distance: Inches | None = None
    distance_to_enemy: Inches | None = None
    in_deployment_zone: bool | None = None


class ReserveRollEvent(BaseEvent):
    action: Literal["reserve_roll"]
    roll: int
    claimed: ReserveClaim | None = None


class ImpactHitsEvent(BaseEvent):
    action: Literal["impact_hits"]
    hits: int | str
    combat_round: int | None = Field(default=None, ge=1)
    charged: bool | None = None


class InitiativeEvent(BaseEvent):
    action: Literal["initiative"]
    rolls: dict[str, int]


class ReinforcementsEvent(BaseEvent):
    action: Literal["reinforcements"]


class ManifestEvent(BaseEvent):
    action: Literal["manifest"]
    power: str


class UnknownEvent(BaseEvent):
    """An action no check knows: kept, and reported ``not_covered`` (never an error)."""


KnownEvent = Annotated[
    MoveEvent | RunEvent | TurboBoostEvent | AdvanceEvent | ReadyEvent | FallBackEvent
    | FleeEvent | ChargeEvent | ReactEvent | ShootEvent | FlightModeEvent | GoToGroundEvent
    | HitEvent | WoundEvent | SaveEvent | CasualtiesEvent | UnitDestroyedEvent
    | BreakTestFailedEvent | FledThroughEvent | PanicTestEvent | DeployEvent
    | ReserveRollEvent | ImpactHitsEvent | InitiativeEvent | ReinforcementsEvent
    | ManifestEvent,
    Field(discriminator="action"),
]
Event = BaseEvent
"""Any parsed event: one of the ``*Event`` classes above, or :class:`UnknownEvent`."""

EVENT_TYPES: dict[str, type[BaseEvent]] = {
    get_args(cls.model_fields["action"].annotation)[0]: cls
    for cls in get_args(get_args(KnownEvent)[0])
}
"""Action name → event class, for every core action of FORMATS §3."""
