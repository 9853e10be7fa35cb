int oca_alloc_placeholder;
