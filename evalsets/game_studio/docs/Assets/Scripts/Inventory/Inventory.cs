using System;
using System.Collections.Generic;
using UnityEngine;

namespace Fernhollow.Cinderglass.Inventory
{
    [Serializable]
    public struct ItemStack
    {
        public string ItemId;
        public int Count;

        public ItemStack(string itemId, int count)
        {
            ItemId = itemId;
            Count = count;
        }
    }

    /// <summary>
    /// The player's bag. The equipped weapon, shield and trinket live in <c>Equipment</c>
    /// and do not take up bag slots.
    /// </summary>
    public class Inventory
    {
        public const int SlotCount = 24;
        public const int DefaultMaxStack = 20;    // items.json can override with "max_stack"

        private readonly List<ItemStack> _slots = new List<ItemStack>(SlotCount);
        private readonly ItemDatabase _items;

        public Inventory(ItemDatabase items)
        {
            _items = items;
        }

        public IReadOnlyList<ItemStack> Slots => _slots;
        public bool IsFull => _slots.Count >= SlotCount;

        /// <summary>
        /// Adds <paramref name="count"/> of an item, topping up existing stacks first.
        /// Returns how many did not fit (0 if everything was added).
        /// </summary>
        public int AddItem(string itemId, int count)
        {
            int maxStack = _items.Get(itemId).MaxStack ?? DefaultMaxStack;
            for (int i = 0; i < _slots.Count && count > 0; i++)
            {
                if (_slots[i].ItemId != itemId || _slots[i].Count >= maxStack) continue;
                int add = Mathf.Min(maxStack - _slots[i].Count, count);
                _slots[i] = new ItemStack(itemId, _slots[i].Count + add);
                count -= add;
            }
            while (count > 0 && !IsFull)
            {
                int add = Mathf.Min(maxStack, count);
                _slots.Add(new ItemStack(itemId, add));
                count -= add;
            }
            return count;
        }

        public int CountOf(string itemId)
        {
            int total = 0;
            foreach (ItemStack s in _slots)
            {
                if (s.ItemId == itemId) total += s.Count;
            }
            return total;
        }
    }
}
