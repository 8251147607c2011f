using UnityEngine;
using Fernhollow.Cinderglass.Combat;

namespace Fernhollow.Cinderglass.Player
{
    /// <summary>
    /// Top-down movement, sprint and dodge roll for the lamplighter. Input comes from
    /// <see cref="PlayerInputReader"/>; blocking with a shield item is handled by <see cref="ShieldBlock"/>.
    /// </summary>
    [RequireComponent(typeof(CharacterController))]
    public class PlayerController : MonoBehaviour
    {
        public const float MoveSpeedMetersPerSecond = 5.5f;
        public const float SprintMultiplier = 1.35f;

        public const float DodgeDistanceMeters = 4.0f;
        public const float DodgeDurationSeconds = 0.35f;
        public const float DodgeInvulnerabilitySeconds = 0.25f;   // i-frames start with the roll
        public const float DodgeStaminaCost = 20f;                // 25 until 1.2.0

        public const float MaxStamina = 100f;
        public const float StaminaRegenPerSecond = 22f;
        public const float StaminaRegenDelaySeconds = 0.6f;
        public const float InputBufferSeconds = 0.15f;

        [SerializeField] private PlayerInputReader _input;
        [SerializeField] private Health _health;
        [SerializeField] private ShieldBlock _shieldBlock;

        private CharacterController _controller;
        private float _stamina = MaxStamina;
        private float _lastStaminaSpendTime;
        private float _dodgeEndsAt;
        private float _bufferedDodgeUntil;
        private Vector3 _dodgeDirection;

        public float Stamina => _stamina;
        public bool IsDodging => Time.time < _dodgeEndsAt;

        private void Awake()
        {
            _controller = GetComponent<CharacterController>();
        }

        private void Update()
        {
            if (_input.DodgePressed)
            {
                _bufferedDodgeUntil = Time.time + InputBufferSeconds;
            }

            if (!IsDodging && Time.time <= _bufferedDodgeUntil && TrySpendStamina(DodgeStaminaCost))
            {
                StartDodge();
            }

            if (IsDodging)
            {
                float dodgeSpeed = DodgeDistanceMeters / DodgeDurationSeconds;
                _controller.Move(_dodgeDirection * dodgeSpeed * Time.deltaTime);
            }
            else
            {
                Vector3 move = new Vector3(_input.Move.x, 0f, _input.Move.y);
                float speed = MoveSpeedMetersPerSecond;
                if (_input.SprintHeld && !_shieldBlock.IsBlocking) speed *= SprintMultiplier;
                _controller.Move(Vector3.ClampMagnitude(move, 1f) * speed * Time.deltaTime);
            }

            RegenerateStamina();
        }

        /// <summary>Spends stamina if enough is available; otherwise spends nothing and returns false.</summary>
        public bool TrySpendStamina(float amount)
        {
            if (_stamina < amount) return false;
            _stamina -= amount;
            _lastStaminaSpendTime = Time.time;
            return true;
        }

        private void StartDodge()
        {
            _bufferedDodgeUntil = 0f;
            _dodgeEndsAt = Time.time + DodgeDurationSeconds;
            Vector2 dir = _input.Move.sqrMagnitude > 0.01f ? _input.Move : _input.Facing;
            _dodgeDirection = new Vector3(dir.x, 0f, dir.y).normalized;
            _health.GrantInvulnerability(DodgeInvulnerabilitySeconds);
        }

        private void RegenerateStamina()
        {
            if (Time.time - _lastStaminaSpendTime < StaminaRegenDelaySeconds) return;
            _stamina = Mathf.Min(MaxStamina, _stamina + StaminaRegenPerSecond * Time.deltaTime);
        }
    }
}
